import { Body, Controller, Get, Param, Post, Put, Query, Res } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import type { AuthUser } from '#app/common/auth/auth-user.js';
import { Auth, CurrentUser } from '#app/common/auth/auth.decorators.js';
import { type RequestMeta, ReqMeta } from '#app/common/http/request-meta.js';
import { ApiErrors } from '#app/common/openapi/api-errors.decorator.js';
import { ApiRequestExample } from '#app/common/openapi/request-example.decorator.js';
import { setNextCursor } from '#app/common/pagination/pagination.js';
import { CreateSiteConfigDto, ListSiteConfigsQueryDto, UpdateSiteConfigDto } from './dto/site-config.dto.js';
import { SiteConfigDto } from './dto/site-config-response.dto.js';
import { SiteConfigsService } from './site-configs.service.js';

const SITE_PARAM = { name: 'site_id', example: 'main', description: 'The site’s slug.' };

@ApiTags('admin: sites')
@Controller('admin/site-configs')
export class SiteConfigsController {
  constructor(private readonly siteConfigs: SiteConfigsService) {}

  @Post()
  @Auth('superadmin')
  @ApiOperation({
    summary: 'Create a site with its settings (superadmin)',
    description:
      'Secrets are stored encrypted and answered masked ("****" plus the last four characters). Without a ' +
      '`frontend_url`, links in the site’s e-mails lead to this service’s own pages in the sandbox.',
  })
  @ApiRequestExample({
    summary: 'A second site, without an 18+ declaration at sign-up',
    description: 'Site `main` exists already (made at start-up); this makes another.',
    value: {
      site_id: 'second-site',
      display_name: 'Second Site',
      email_provider: 'log',
      additional_settings: { age_check: 'none' },
    },
  })
  @ApiCreatedResponse({ type: SiteConfigDto })
  @ApiErrors(400, 'SITE_EXISTS', 'MAIL_SETTINGS_INCOMPLETE')
  createSiteConfig(
    @Body() body: CreateSiteConfigDto,
    @CurrentUser() actor: AuthUser,
    @ReqMeta() meta: RequestMeta,
  ): Promise<SiteConfigDto> {
    return this.siteConfigs.create(body, actor, meta);
  }

  @Get()
  @Auth('superadmin')
  @ApiOperation({ summary: 'List every site (superadmin)', description: 'Paged: `limit`, `cursor`.' })
  @ApiOkResponse({ type: [SiteConfigDto] })
  @ApiErrors(400)
  async listSiteConfigs(
    @Query() query: ListSiteConfigsQueryDto,
    @Res({ passthrough: true }) res: Response,
  ): Promise<SiteConfigDto[]> {
    const rows = await this.siteConfigs.list(query.limit, query.cursor);
    setNextCursor(res, rows, query.limit);
    return rows;
  }

  @Get(':site_id')
  @Auth('admin')
  @ApiOperation({ summary: 'Read a site’s settings (its admins; secrets masked)' })
  @ApiParam(SITE_PARAM)
  @ApiOkResponse({ type: SiteConfigDto })
  @ApiErrors(404)
  getSiteConfig(@Param('site_id') siteId: string): Promise<SiteConfigDto> {
    return this.siteConfigs.get(siteId);
  }

  @Put(':site_id')
  @Auth('admin')
  @ApiOperation({
    summary: 'Change a site’s settings (its admins)',
    description:
      'Partial: omitted fields keep their values and `null` clears one. A secret is kept when omitted or ' +
      'sent back masked as it was read, except the SMTP password when `smtp_host`, `smtp_port` or ' +
      '`smtp_username` changes: it must then be sent again (422 `SECRET_REQUIRED`), so that it never logs ' +
      'in to a server it was not given for. `site_id` cannot change.',
  })
  @ApiParam(SITE_PARAM)
  @ApiRequestExample({
    summary: 'Rename site main',
    value: { display_name: 'Main Street Prizes' },
  })
  @ApiOkResponse({ type: SiteConfigDto })
  @ApiErrors(400, 404, 'MAIL_SETTINGS_INCOMPLETE', 'SECRET_REQUIRED')
  updateSiteConfig(
    @Param('site_id') siteId: string,
    @Body() body: UpdateSiteConfigDto,
    @CurrentUser() actor: AuthUser,
    @ReqMeta() meta: RequestMeta,
  ): Promise<SiteConfigDto> {
    return this.siteConfigs.update(siteId, body, actor, meta);
  }
}
