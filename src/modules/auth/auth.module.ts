import { type MiddlewareConsumer, Module, type NestModule, RequestMethod } from '@nestjs/common';
import { JwtModule } from '@nestjs/jwt';
import { PassportModule } from '@nestjs/passport';
import { TypeOrmModule } from '@nestjs/typeorm';
import { JwtStrategy } from '#app/common/auth/jwt.strategy.js';
import { AppConfig } from '#app/config/app-config.js';
import { MailModule } from '#app/modules/mail/mail.module.js';
import { SitesModule } from '#app/modules/sites/sites.module.js';
import { UsersModule } from '#app/modules/users/users.module.js';
import { AdminBootstrapService } from './admin-bootstrap.service.js';
import { AuthController } from './auth.controller.js';
import { AuthService } from './auth.service.js';
import { OneTimeToken } from './entities/one-time-token.entity.js';
import { RefreshToken } from './entities/refresh-token.entity.js';
import { OneTimeTokensRepository } from './one-time-tokens.repository.js';
import { PasswordFlowsService } from './password-flows.service.js';
import { PasswordHasher } from './password-hasher.js';
import { RefreshTokensRepository } from './refresh-tokens.repository.js';
import { SessionService } from './session.service.js';
import { siteFromHeader } from './site-from-header.middleware.js';

@Module({
  imports: [
    TypeOrmModule.forFeature([RefreshToken, OneTimeToken]),
    PassportModule,
    JwtModule.registerAsync({
      inject: [AppConfig],
      useFactory: (config: AppConfig) => ({ secret: config.jwtSecret, signOptions: { algorithm: 'HS256' } }),
    }),
    UsersModule,
    SitesModule,
    MailModule,
  ],
  controllers: [AuthController],
  providers: [
    JwtStrategy,
    AuthService,
    SessionService,
    PasswordFlowsService,
    PasswordHasher,
    RefreshTokensRepository,
    OneTimeTokensRepository,
    AdminBootstrapService,
  ],
  exports: [PasswordFlowsService, SessionService, AdminBootstrapService, PasswordHasher],
})
export class AuthModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(siteFromHeader).forRoutes(
      ...['auth/register', 'auth/login', 'auth/magic-link', 'auth/password-reset'].map((path) => ({
        path,
        method: RequestMethod.POST,
      })),
    );
  }
}
