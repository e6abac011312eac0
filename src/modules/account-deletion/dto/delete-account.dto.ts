import { Line, Str } from '#app/common/validation/fields.js';

export class DeleteMyAccountDto {
  @Str({
    max: 128,
    description:
      'Your current password. Required when the account has one; an account made without a password ' +
      '(a guest purchase, a website form) sends none.',
  })
  password?: string;

  @Line({ max: 500, description: 'Why you are leaving (optional, kept with the deleted account).' })
  reason?: string;
}

export class DeleteUserDto {
  @Line({ max: 500, description: 'Why the account is deleted (kept with it and in the activity log).' })
  reason?: string;
}
