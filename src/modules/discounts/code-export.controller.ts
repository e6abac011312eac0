import { Readable } from 'node:stream';
import { Controller, Get, Param, StreamableFile } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import { Auth, CurrentSite } from '#app/common/auth/auth.decorators.js';
import { ApiErrors } from '#app/common/openapi/api-errors.decorator.js';
import { UuidParam } from '#app/common/validation/uuid-param.pipe.js';
import { CodeExportService } from './code-export.service.js';

@ApiTags('admin: discounts')
@Controller('admin/discount-codes')
export class CodeExportController {
  constructor(private readonly exports: CodeExportService) {}

  @Get(':id/codes.csv')
  @Auth('admin')
  @ApiOperation({
    summary: 'Export a bulk code’s generated codes as CSV',
    description:
      'Columns `code,claimed,claimed_by_user_id,claimed_at` (claimed `true`/`false`, ISO timestamp), ' +
      'one line per code in code order, streamed.',
  })
  @ApiProduces('text/csv')
  @ApiOkResponse({
    description: 'The CSV file (attachment).',
    content: {
      'text/csv': {
        schema: {
          type: 'string',
          example: 'code,claimed,claimed_by_user_id,claimed_at\r\nSAVE-7KQ2M9XA,false,,\r\n',
        },
      },
    },
  })
  @ApiErrors(404, 'NOT_A_BULK_CODE')
  async exportCodes(
    @CurrentSite() siteId: string,
    @Param('id', UuidParam) id: string,
  ): Promise<StreamableFile> {
    const file = await this.exports.codesCsv(siteId, id);
    return new StreamableFile(Readable.from(file.lines), {
      type: 'text/csv; charset=utf-8',
      disposition: `attachment; filename="${file.filename}"`,
    });
  }
}
