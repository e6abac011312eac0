import { Body, Controller, Get, Put } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { AuthUser } from '#app/common/auth/auth-user.js';
import { Auth, CurrentUser } from '#app/common/auth/auth.decorators.js';
import { type RequestMeta, ReqMeta } from '#app/common/http/request-meta.js';
import { ApiErrors } from '#app/common/openapi/api-errors.decorator.js';
import { UpdateProfileDto } from './dto/update-profile.dto.js';
import { UserDto } from './dto/user.dto.js';
import { UsersService } from './users.service.js';

@ApiTags('users')
@Controller('users')
export class UsersController {
  constructor(private readonly users: UsersService) {}

  @Get('me')
  @Auth('user')
  @ApiOperation({ summary: 'The current user, with profile, activity, payments, points and entries' })
  @ApiOkResponse({ type: UserDto })
  getMe(@CurrentUser() user: AuthUser): Promise<UserDto> {
    return this.users.getUser(user.id);
  }

  @Put('profile')
  @Auth('user')
  @ApiOperation({
    summary: 'Update the current user’s profile and marketing consent',
    description: 'A user cannot change its own role: a `role` different from the current one is 403.',
  })
  @ApiOkResponse({ type: UserDto })
  @ApiErrors(400)
  updateProfile(
    @CurrentUser() user: AuthUser,
    @Body() body: UpdateProfileDto,
    @ReqMeta() meta: RequestMeta,
  ): Promise<UserDto> {
    return this.users.updateProfile(user, body, meta);
  }
}
