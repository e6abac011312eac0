import { Body, Controller, Get, Param, Put, Query, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import type { AuthUser } from '#app/common/auth/auth-user.js';
import { Auth, CurrentSite, CurrentUser } from '#app/common/auth/auth.decorators.js';
import { type RequestMeta, ReqMeta } from '#app/common/http/request-meta.js';
import { ApiErrors } from '#app/common/openapi/api-errors.decorator.js';
import { ApiRequestExample } from '#app/common/openapi/request-example.decorator.js';
import { setNextCursor } from '#app/common/pagination/pagination.js';
import { UuidParam } from '#app/common/validation/uuid-param.pipe.js';
import { FindUsersQueryDto, UpdateRoleDto } from './dto/admin-users.dto.js';
import { UserSummaryDto } from './dto/user.dto.js';
import { UsersService } from './users.service.js';

@ApiTags('admin: users')
@Controller('admin/users')
export class AdminUsersController {
  constructor(private readonly users: UsersService) {}

  @Get()
  @Auth('admin')
  @ApiOperation({
    summary: 'Find users of a site (by e-mail)',
    description: 'Paged: `limit`, `cursor`; next page in `X-Next-Cursor`.',
  })
  @ApiOkResponse({ type: [UserSummaryDto] })
  @ApiErrors(400)
  async findUsers(
    @CurrentSite() siteId: string,
    @Query() query: FindUsersQueryDto,
    @Res({ passthrough: true }) res: Response,
  ): Promise<UserSummaryDto[]> {
    const rows = await this.users.findUsers(siteId, query.email, query.limit, query.cursor);
    setNextCursor(res, rows, query.limit);
    return rows;
  }

  @Put(':id/role')
  @Auth('superadmin')
  @ApiOperation({ summary: 'Grant or remove the admin role (superadmin only)' })
  @ApiRequestExample({
    summary: 'Make a user an admin of its site',
    description: '`{id}`: the user’s id, from `GET /admin/users?email=…`.',
    value: { role: 'admin' },
  })
  @ApiOkResponse({ type: UserSummaryDto })
  @ApiErrors(400, 404, { code: 'FORBIDDEN', detail: 'You may not set this role.' })
  setRole(
    @CurrentUser() actor: AuthUser,
    @Param('id', UuidParam) id: string,
    @Body() body: UpdateRoleDto,
    @ReqMeta() meta: RequestMeta,
  ): Promise<UserSummaryDto> {
    return this.users.setRole(actor, id, body.role, meta);
  }
}
