import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

export class FieldErrorDto {
  @ApiProperty({ type: String, example: 'email' }) field!: string;
  @ApiProperty({ type: String, example: 'email must be an email' }) message!: string;
}

/** RFC 9457 problem details (DESIGN §4), documented once for every error response. */
export class ProblemDto {
  @ApiProperty({ type: String, example: 'about:blank#validation_failed' }) type!: string;
  @ApiProperty({ type: String, example: 'Bad Request' }) title!: string;
  @ApiProperty({ type: Number, example: 400 }) status!: number;
  @ApiProperty({ type: String, example: 'The request is not valid.' }) detail!: string;
  @ApiProperty({ type: String, example: 'VALIDATION_FAILED' }) code!: string;
  @ApiProperty({ type: String, example: '6f1c2d0e-3b4a-4c5d-9e8f-0a1b2c3d4e5f' }) request_id!: string;
  @ApiPropertyOptional({ type: [FieldErrorDto] }) errors?: FieldErrorDto[];
}

/** The order endpoints' failure body (endpoints 3 and 4 answer failures in their own shape). */
export class OrderFailureDto {
  @ApiProperty({ type: Boolean, example: false }) success!: boolean;
  @ApiProperty({ type: String, example: 'The amount does not match the server’s price for this order.' })
  error!: string;
  @ApiProperty({ type: String, example: 'AMOUNT_MISMATCH' }) error_code!: string;
  @ApiProperty({ type: String, description: 'The field errors, `field: message; …`, else the error again.' })
  message!: string;
}
