import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  HttpStatus,
  Param,
  Post,
  Put,
  Query,
  Res,
} from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import type { Response } from 'express';
import type { AuthUser } from '#app/common/auth/auth-user.js';
import { Auth, CurrentSite, CurrentUser, OptionalAuth } from '#app/common/auth/auth.decorators.js';
import { ApiErrors } from '#app/common/openapi/api-errors.decorator.js';
import { ApiRequestExample } from '#app/common/openapi/request-example.decorator.js';
import { setNextCursor } from '#app/common/pagination/pagination.js';
import { UuidParam } from '#app/common/validation/uuid-param.pipe.js';
import { Idempotent } from '#app/common/idempotency/idempotency.decorator.js';
import { type RequestMeta, ReqMeta } from '#app/common/http/request-meta.js';
import { BulkGenerateService } from './bulk-generate.service.js';
import { ClaimsService } from './claims.service.js';
import { ClaimResultDto } from './dto/claim.dto.js';
import { DiscountCodesService } from './discount-codes.service.js';
import {
  BulkGenerateDto,
  CreateDiscountCodeDto,
  ListDiscountCodesQueryDto,
  UpdateDiscountCodeDto,
} from './dto/discount-code-input.dto.js';
import { BulkGenerateResultDto, DiscountCodeDto } from './dto/responses.dto.js';
import { StaffAction } from '#app/modules/users/staff-action.js';

const MASKING =
  '`code` is `null` (and `code_display` bullets) unless you are an admin of the site or claimed the code.';

const BRAND_ID =
  'Replace `discount_brand_id` (and `tag_ids`) with ids `POST /admin/discount-brands` (and `POST /admin/tags`) answered.';
const EXAMPLE_ID = '6f1c2d0e-3b4a-4c5d-9e8f-0a1b2c3d4e5f';

@Controller('discount-codes')
export class DiscountCodesController {
  constructor(
    private readonly codes: DiscountCodesService,
    private readonly bulk: BulkGenerateService,
    private readonly claims: ClaimsService,
  ) {}

  @StaffAction({ type: 'discount_code_created', resource: 'discount_code', what: 'Discount code created' })
  @Post()
  @ApiTags('admin: discounts')
  @HttpCode(HttpStatus.CREATED)
  @Auth('admin')
  @ApiOperation({ summary: 'Create a discount code (endpoint 7)' })
  @ApiRequestExample({
    summary: '20% off at a partner, for 100 points',
    description: BRAND_ID,
    value: {
      code: 'TRAIL20',
      discount_brand_id: EXAMPLE_ID,
      points_required: 100,
      title: '20% off at Acme Outdoor',
      discount_percentage: 20,
      tag_ids: [EXAMPLE_ID],
      featured: true,
      valid_from: '2026-01-01T00:00:00Z',
      valid_until: '2036-12-31T23:59:59Z',
    },
  })
  @ApiCreatedResponse({ type: DiscountCodeDto })
  @ApiErrors(400, 'UNKNOWN_DISCOUNT_BRAND', 'UNKNOWN_TAG', 'INVALID_VALIDITY_WINDOW', 'USE_BULK_GENERATE')
  create(
    @CurrentUser() caller: AuthUser,
    @CurrentSite() siteId: string,
    @Body() body: CreateDiscountCodeDto,
  ): Promise<DiscountCodeDto> {
    return this.codes.create(caller, siteId, body);
  }

  @StaffAction({
    type: 'discount_codes_generated',
    resource: 'discount_code',
    what: 'Discount codes generated',
  })
  @Post('bulk-generate')
  @ApiTags('admin: discounts')
  @HttpCode(HttpStatus.CREATED)
  @Auth('admin')
  @ApiOperation({
    summary: 'Create a bulk discount code with `count` unique codes (endpoint 8)',
    description:
      'Codes are `prefix` plus `code_length` crypto-random characters: A–Z and 2–9 without O, I, 0 and 1 ' +
      '(`alphanumeric`, the default), or digits. Unique per site. A request may fill at most 1% of the codes ' +
      'of its prefix and length, counting those the site already generated (else 422 CODE_SPACE_TOO_SMALL). ' +
      'Export them with `GET /admin/discount-codes/{id}/codes.csv`.',
  })
  @ApiRequestExample({
    summary: '100 unique 10%-off codes, 50 points each',
    description: BRAND_ID,
    value: {
      code_length: 8,
      count: 100,
      discount_brand_id: EXAMPLE_ID,
      points_required: 50,
      title: '10% off at Acme Outdoor, one code each',
      prefix: 'ACME-',
      discount_percentage: 10,
    },
  })
  @ApiCreatedResponse({ type: BulkGenerateResultDto })
  @ApiErrors(400, 'UNKNOWN_DISCOUNT_BRAND', 'UNKNOWN_TAG', 'INVALID_VALIDITY_WINDOW', 'CODE_SPACE_TOO_SMALL')
  bulkGenerate(
    @CurrentUser() caller: AuthUser,
    @CurrentSite() siteId: string,
    @Body() body: BulkGenerateDto,
  ): Promise<BulkGenerateResultDto> {
    return this.bulk.generate(caller, siteId, body);
  }

  @Get()
  @ApiTags('discounts')
  @OptionalAuth()
  @ApiOperation({
    summary: 'Discount codes of a site, newest first',
    description:
      `Filters: \`tag\` and \`brand\` (slug or id), \`featured\`. Active codes only, except for admins. ${MASKING} ` +
      'Paged: `limit`, `cursor`; next page in `X-Next-Cursor`.',
  })
  @ApiOkResponse({ type: [DiscountCodeDto] })
  @ApiErrors(400)
  async list(
    @CurrentUser() caller: AuthUser | undefined,
    @CurrentSite() siteId: string | undefined,
    @Query() query: ListDiscountCodesQueryDto,
    @Res({ passthrough: true }) res: Response,
  ): Promise<DiscountCodeDto[]> {
    const rows = await this.codes.list(caller, siteId, query);
    setNextCursor(res, rows, query.limit);
    return rows;
  }

  @Get(':id')
  @ApiTags('discounts')
  @OptionalAuth()
  @ApiOperation({ summary: 'One discount code', description: MASKING })
  @ApiOkResponse({ type: DiscountCodeDto })
  @ApiErrors(404)
  get(
    @CurrentUser() caller: AuthUser | undefined,
    @CurrentSite() siteId: string | undefined,
    @Param('id', UuidParam) id: string,
  ): Promise<DiscountCodeDto> {
    return this.codes.get(caller, siteId, id);
  }

  @Get(':id/with-claims')
  @ApiTags('discounts')
  @Auth('user')
  @ApiOperation({
    summary: 'One discount code with the current user’s claims (endpoint 9)',
    description: `\`claimed_codes\`: the codes you claimed; \`has_claimed_code\`: whether you claimed it. ${MASKING}`,
  })
  @ApiOkResponse({ type: DiscountCodeDto })
  @ApiErrors(404)
  getWithClaims(
    @CurrentUser() caller: AuthUser,
    @CurrentSite() siteId: string,
    @Param('id', UuidParam) id: string,
  ): Promise<DiscountCodeDto> {
    return this.codes.get(caller, siteId, id);
  }

  @Post(':id/claim')
  @ApiTags('discounts')
  @Auth('user')
  @Idempotent()
  @ApiOperation({
    summary: 'Claim a discount code with your points',
    description:
      'Spends the code’s `points_required` and reveals your code: a bulk code hands you a generated code no one ' +
      'else has; a code with `code_required: false` needs none. Once per user unless `allow_multiple_claims`. ' +
      'Every 5th claim earns a bonus (the site’s rules).',
  })
  @ApiCreatedResponse({ type: ClaimResultDto })
  @ApiErrors(404, 'CODE_NOT_VALID', 'ALREADY_CLAIMED', 'CODE_USED_UP', 'PRICE_CHANGED', 'INSUFFICIENT_POINTS')
  claim(
    @CurrentUser() user: AuthUser,
    @Param('id', UuidParam) id: string,
    @ReqMeta() meta: RequestMeta,
  ): Promise<ClaimResultDto> {
    return this.claims.claim(user, id, meta);
  }

  @StaffAction({ type: 'discount_code_updated', resource: 'discount_code', what: 'Discount code changed' })
  @Put(':id')
  @ApiTags('admin: discounts')
  @Auth('admin')
  @ApiOperation({
    summary: 'Update a discount code',
    description: 'Only the fields sent change; `null` clears an optional field; `tag_ids` replaces the tags.',
  })
  @ApiRequestExample({
    summary: 'No longer featured, and at most 500 claims',
    description: '`{id}`: the code’s id, as its creation answered.',
    value: { featured: false, max_uses: 500 },
  })
  @ApiOkResponse({ type: DiscountCodeDto })
  @ApiErrors(
    400,
    404,
    'UNKNOWN_DISCOUNT_BRAND',
    'UNKNOWN_TAG',
    'INVALID_VALIDITY_WINDOW',
    'NOT_FOR_BULK_CODES',
  )
  update(
    @CurrentUser() caller: AuthUser,
    @CurrentSite() siteId: string,
    @Param('id', UuidParam) id: string,
    @Body() body: UpdateDiscountCodeDto,
  ): Promise<DiscountCodeDto> {
    return this.codes.update(caller, siteId, id, body);
  }

  @StaffAction({ type: 'discount_code_deleted', resource: 'discount_code', what: 'Discount code deleted' })
  @Delete(':id')
  @ApiTags('admin: discounts')
  @HttpCode(HttpStatus.NO_CONTENT)
  @Auth('admin')
  @ApiOperation({
    summary: 'Delete a discount code',
    description: 'Soft: it disappears from every read; its generated codes and claims stay on record.',
  })
  @ApiNoContentResponse({ description: 'Deleted.' })
  @ApiErrors(404)
  remove(@CurrentSite() siteId: string, @Param('id', UuidParam) id: string): Promise<void> {
    return this.codes.remove(siteId, id);
  }
}
