import { Injectable } from '@nestjs/common';
import type { AuthUser } from '#app/common/auth/auth-user.js';
import { AppException } from '#app/common/errors/app.exception.js';
import { TransactionRunner } from '#app/infra/database/transaction-runner.js';
import {
  alphabetFor,
  bulkCodePattern,
  drawCodes,
  fillUniqueCodes,
  fitsCodeSpace,
  maxCodesOfShape,
} from './bulk-codes.rules.js';
import { CatalogueService } from './catalogue.service.js';
import { DiscountCodeViews } from './discount-code-views.js';
import { DiscountCodesRepository } from './discount-codes.repository.js';
import type { BulkGenerateDto } from './dto/discount-code-input.dto.js';
import type { BulkGenerateResultDto } from './dto/responses.dto.js';
import type { DiscountCode } from './entities/discount-code.entity.js';
import { checkWindow, offerColumns } from './offer-input.js';
import { UniqueCodesRepository } from './unique-codes.repository.js';

function spaceTooSmall(alphanumeric: boolean, codeLength: number, existing: number): AppException {
  const limit = maxCodesOfShape(alphanumeric, codeLength);
  return AppException.unprocessable(
    'CODE_SPACE_TOO_SMALL',
    `This prefix, alphabet and length allow at most ${limit} codes on the site (1% of all possible codes` +
      `${existing ? `; ${existing} exist already` : ''}). Use a longer code_length, alphanumeric codes or another prefix.`,
  );
}

/**
 * Endpoint 8 (DESIGN §6): a bulk discount code and `count` unique codes, all in one transaction. The
 * codes go in set-based, one INSERT … SELECT FROM unnest per round; a round replaces only the codes that
 * collided with ones the site already had.
 */
@Injectable()
export class BulkGenerateService {
  constructor(
    private readonly codes: DiscountCodesRepository,
    private readonly unique: UniqueCodesRepository,
    private readonly catalogue: CatalogueService,
    private readonly views: DiscountCodeViews,
    private readonly tx: TransactionRunner,
  ) {}

  async generate(caller: AuthUser, siteId: string, body: BulkGenerateDto): Promise<BulkGenerateResultDto> {
    const { count, prefix: givenPrefix, ...fields } = body;
    const prefix = givenPrefix ?? '';
    const alphanumeric = body.alphanumeric ?? true;
    const columns = offerColumns(fields);
    checkWindow(columns.valid_from ?? null, columns.valid_until ?? null);
    const shape = { prefix, alphabet: alphabetFor(alphanumeric), length: body.code_length };
    const space = { alphanumeric, codeLength: body.code_length, count };
    if (!fitsCodeSpace({ ...space, existing: 0 })) throw spaceTooSmall(alphanumeric, body.code_length, 0);

    const { code, generated } = await this.tx.run(async (manager) => {
      await this.catalogue.requireBrand(siteId, body.discount_brand_id, manager);
      const tags = await this.catalogue.requireTags(siteId, body.tag_ids ?? [], manager);
      await this.unique.lockSiteForGeneration(siteId, manager);
      const existing = await this.codes.generatedOfShape(siteId, prefix, shape.length, manager);
      if (!fitsCodeSpace({ ...space, existing }))
        throw spaceTooSmall(alphanumeric, body.code_length, existing);
      const row = await this.codes.insert(
        {
          ...columns,
          site_id: siteId,
          code: null,
          code_required: true,
          is_bulk_code: true,
          alphanumeric,
          prefix,
          generated_count: count,
          code_pattern: bulkCodePattern(prefix, shape.length),
        } as DiscountCode,
        tags.map((t) => t.id),
        manager,
      );
      const stored = await fillUniqueCodes(
        count,
        (n) => drawCodes(n, shape),
        (batch) => this.unique.insertBatch(siteId, row.id, batch, manager),
      );
      // Only when the space is far fuller than the guard allows (codes of another shape that share it).
      if (stored.length < count) throw spaceTooSmall(alphanumeric, body.code_length, existing);
      return { code: row, generated: stored.length };
    });
    const dto = await this.views.presentOne(code, caller);
    return { ...dto, generated_count: generated };
  }
}
