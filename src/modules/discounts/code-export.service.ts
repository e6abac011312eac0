import { Injectable } from '@nestjs/common';
import { AppException } from '#app/common/errors/app.exception.js';
import { DiscountCodesRepository } from './discount-codes.repository.js';
import { csvLine } from './discounts.rules.js';
import { UniqueCodesRepository } from './unique-codes.repository.js';

export const CSV_HEADER = ['code', 'claimed', 'claimed_by_user_id', 'claimed_at'];
const PAGE = 1000;

export interface CsvExport {
  filename: string;
  /** The file, line by line, read from the database a page at a time while it is sent. */
  lines: AsyncIterable<string>;
}

/** `GET /admin/discount-codes/{id}/codes.csv`: a bulk code's generated codes with their claim state. */
@Injectable()
export class CodeExportService {
  constructor(
    private readonly codes: DiscountCodesRepository,
    private readonly unique: UniqueCodesRepository,
  ) {}

  async codesCsv(siteId: string, id: string): Promise<CsvExport> {
    const code = await this.codes.findLive(id, siteId);
    if (!code) throw AppException.notFound('Discount code');
    if (!code.is_bulk_code)
      throw AppException.unprocessable('NOT_A_BULK_CODE', 'Only a bulk code has generated codes to export.');
    return { filename: `discount-codes-${code.id}.csv`, lines: this.lines(code.id) };
  }

  private async *lines(codeId: string): AsyncIterable<string> {
    yield csvLine(CSV_HEADER);
    let after: string | null = null;
    for (;;) {
      const rows = await this.unique.page(codeId, after, PAGE);
      yield rows
        .map((r) =>
          csvLine([r.code, r.claimed_at !== null, r.claimed_by_user_id, r.claimed_at?.toISOString() ?? null]),
        )
        .join('');
      if (rows.length < PAGE) return;
      after = rows[rows.length - 1].code;
    }
  }
}
