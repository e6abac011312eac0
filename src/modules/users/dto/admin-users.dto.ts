import { IsIn } from 'class-validator';
import { ApiProperty } from '@nestjs/swagger';
import { PageQueryDto } from '#app/common/pagination/pagination.js';
import { Email, Str } from '#app/common/validation/fields.js';

export class FindUsersQueryDto extends PageQueryDto {
  @Str({ max: 64, description: 'Defaults to your own site; only a superadmin may name another.' })
  site_id?: string;

  @Email({ description: 'Exact e-mail (case-insensitive).', example: 'newcomer@example.com' })
  email?: string;
}

export class UpdateRoleDto {
  @IsIn(['user', 'admin'])
  @ApiProperty({ enum: ['user', 'admin'], example: 'admin', description: 'Grant or remove `admin`.' })
  role!: 'user' | 'admin';
}
