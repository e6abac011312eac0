import { Body, Controller, Delete, HttpCode, Param } from '@nestjs/common';
import { ApiNoContentResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { AuthUser } from '#app/common/auth/auth-user.js';
import { Auth, CurrentUser } from '#app/common/auth/auth.decorators.js';
import { type RequestMeta, ReqMeta } from '#app/common/http/request-meta.js';
import { ApiErrors } from '#app/common/openapi/api-errors.decorator.js';
import { ApiRequestExample } from '#app/common/openapi/request-example.decorator.js';
import { EXAMPLE_NEWCOMER_NEW_PASSWORD } from '#app/modules/auth/auth.examples.js';
import { UuidParam } from '#app/common/validation/uuid-param.pipe.js';
import { AccountDeletionService } from './account-deletion.service.js';
import { DeleteMyAccountDto, DeleteUserDto } from './dto/delete-account.dto.js';

const EFFECTS =
  'The account is anonymised at once (e-mail replaced, names and profile cleared; the address may register ' +
  'again), its tokens stop working, its memberships end with no further charge, and a referral it came ' +
  'through is cancelled with the referrer’s bonuses taken back. Payments, entries and points stay as ' +
  'financial records.';

@ApiTags('users')
@Controller('users')
export class AccountDeletionController {
  constructor(private readonly deletion: AccountDeletionService) {}

  @Delete('me')
  @Auth('user')
  @HttpCode(204)
  @ApiOperation({
    summary: 'Delete your own account',
    description: `Send your current password (an account made without one sends none). ${EFFECTS}`,
  })
  @ApiRequestExample({
    summary: 'Delete the account, confirming with the password',
    description:
      'Authorised as the account to delete (here the newcomer, whose password the password-set example changed).',
    value: { password: EXAMPLE_NEWCOMER_NEW_PASSWORD, reason: 'I no longer play' },
  })
  @ApiNoContentResponse({ description: 'Deleted; the token used is refused from now on.' })
  @ApiErrors(
    { code: 'VALIDATION_FAILED', detail: 'Confirm the deletion with your current password.' },
    'WRONG_PASSWORD',
    404,
  )
  deleteMe(
    @CurrentUser() user: AuthUser,
    @Body() body: DeleteMyAccountDto,
    @ReqMeta() meta: RequestMeta,
  ): Promise<void> {
    return this.deletion.deleteOwn(user, body, meta);
  }
}

@ApiTags('admin: users')
@Controller('admin/users')
export class AdminAccountDeletionController {
  constructor(private readonly deletion: AccountDeletionService) {}

  @Delete(':id')
  @Auth('admin')
  @HttpCode(204)
  @ApiOperation({
    summary: 'Delete a user’s account',
    description:
      `An admin deletes users of its own site; only a superadmin deletes an admin or a superadmin, of any ` +
      `site; nobody deletes itself here. ${EFFECTS}`,
  })
  @ApiRequestExample({
    summary: 'Delete an account at its holder’s request',
    description: '`{id}`: the user’s id, from `GET /admin/users?email=…`.',
    value: { reason: 'Erasure request received by e-mail' },
  })
  @ApiNoContentResponse({ description: 'Deleted.' })
  @ApiErrors(400, 404, { code: 'FORBIDDEN', detail: 'Only a superadmin may delete an admin or superadmin.' })
  deleteUser(
    @CurrentUser() actor: AuthUser,
    @Param('id', UuidParam) id: string,
    @Body() body: DeleteUserDto,
    @ReqMeta() meta: RequestMeta,
  ): Promise<void> {
    return this.deletion.deleteByAdmin(actor, id, body, meta);
  }
}
