import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsInt, IsOptional, Max, Min } from 'class-validator';
import { PageQueryDto } from '#app/common/pagination/pagination.js';
import { Str } from '#app/common/validation/fields.js';

/** Query text to an integer only when it is one ("5", "-1"); anything else stays text and fails IsInt. */
const toInt = (value: unknown): unknown =>
  typeof value === 'string' && /^-?\d{1,15}$/.test(value) ? Number(value) : value;

export class SiteQueryDto {
  @Str({ max: 64, example: 'main', description: 'The site; else the `X-Site-Id` header.' })
  site_id?: string;
}

export class RaffleListQueryDto extends PageQueryDto {
  @Str({
    max: 64,
    example: 'main',
    description: 'The site; else the `X-Site-Id` header, else your token’s site.',
  })
  site_id?: string;
}

/** A raffle's public winners, paged like every list (DESIGN §9). */
export class WinnersQueryDto extends PageQueryDto {
  @Str({ max: 64, example: 'main', description: 'The site; else the `X-Site-Id` header.' })
  site_id?: string;
}

export class QuoteQueryDto extends SiteQueryDto {
  @Transform(({ value }) => toInt(value))
  @IsInt()
  @Min(0)
  @Max(10_000_000)
  @ApiProperty({
    type: 'integer',
    minimum: 0,
    maximum: 10_000_000,
    example: 5,
    description: 'Single tickets.',
  })
  quantity!: number;

  @IsOptional()
  @Transform(({ value }) => (Array.isArray(value) ? value : [value]).map(toInt))
  @IsArray()
  @ArrayMaxSize(20)
  @IsInt({ each: true })
  @Min(1, { each: true })
  @ApiPropertyOptional({
    type: 'integer',
    isArray: true,
    example: [10],
    description: 'A bundle by its ticket quantity; repeat for several (`upsell=5&upsell=10`).',
  })
  upsell?: number[];
}
