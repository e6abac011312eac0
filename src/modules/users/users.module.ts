import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AUTH_USER_LOOKUP } from '#app/common/auth/auth-user-lookup.js';
import { AccountsService } from './accounts.service.js';
import { ActivityLogService } from './activity-log.service.js';
import { AdminUsersController } from './admin-users.controller.js';
import { ActivityLog } from './entities/activity-log.entity.js';
import { UserProfile } from './entities/user-profile.entity.js';
import { User } from './entities/user.entity.js';
import { LoginAttemptsRepository } from './login-attempts.repository.js';
import { UserRecordsPort } from './ports/user-records.port.js';
import { UsersController } from './users.controller.js';
import { UsersRepository } from './users.repository.js';
import { UsersService } from './users.service.js';

@Module({
  imports: [TypeOrmModule.forFeature([User, UserProfile, ActivityLog])],
  controllers: [UsersController, AdminUsersController],
  providers: [
    UsersRepository,
    LoginAttemptsRepository,
    UsersService,
    AccountsService,
    ActivityLogService,
    UserRecordsPort,
    { provide: AUTH_USER_LOOKUP, useExisting: AccountsService },
  ],
  exports: [UsersService, AccountsService, ActivityLogService, UserRecordsPort, AUTH_USER_LOOKUP],
})
export class UsersModule {}
