import { Body, Controller, Get, Put } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { AuthUser } from '#app/common/auth/auth-user.js';
import { Auth, CurrentUser } from '#app/common/auth/auth.decorators.js';
import { type RequestMeta, ReqMeta } from '#app/common/http/request-meta.js';
import { ApiErrors } from '#app/common/openapi/api-errors.decorator.js';
import { ApiRequestExample } from '#app/common/openapi/request-example.decorator.js';
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
  @ApiRequestExample({
    summary: 'The newcomer gives its name and opts in to marketing',
    description: 'Authorised as the user `POST /auth/register` made.',
    value: {
      marketing_consent: true,
      profile: { first_name: 'Jane', last_name: 'Newcomer', city: 'Leeds', country: 'GB' },
    },
  })
  @ApiOkResponse({ type: UserDto })
  @ApiErrors(400, { code: 'FORBIDDEN', detail: 'You cannot change your own role.' })
  updateProfile(
    @CurrentUser() user: AuthUser,
    @Body() body: UpdateProfileDto,
    @ReqMeta() meta: RequestMeta,
  ): Promise<UserDto> {
    return this.users.updateProfile(user, body, meta);
  }
}
