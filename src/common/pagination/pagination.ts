import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, IsUUID, Max, MaxLength, Min } from 'class-validator';
import type { Response } from 'express';

/** `limit` (1–100, default 50) (DESIGN §9). */
export class LimitQueryDto {
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(100)
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 100, default: 50 })
  limit: number = 50;
}

/** `limit` and a `cursor` that is a row id: the paging of every list read from the database. */
export class PageQueryDto extends LimitQueryDto {
  // Cursors are row ids: anything else would reach the database as a malformed uuid (500), so it is a 400 here.
  @IsOptional()
  @IsString()
  @MaxLength(200)
  @IsUUID('all', { message: 'cursor is not valid' })
  @ApiPropertyOptional({ type: String, description: 'From the previous page’s `X-Next-Cursor` header.' })
  cursor?: string;
}

/**
 * A site's list, paged: the site as every admin list takes it (DESIGN §3: `site_id` in the query, else the
 * `X-Site-Id` header, else the token's site; the site scope checks who may name which).
 */
export class SitePageQueryDto extends PageQueryDto {
  @IsOptional()
  @IsString()
  @MaxLength(64)
  @ApiPropertyOptional({
    type: String,
    maxLength: 64,
    example: 'main',
    description: 'The site; else the `X-Site-Id` header, else your token’s site.',
  })
  site_id?: string;
}

/** The body stays the array the spec shows; the next page is announced in headers. */
export function setNextCursor(res: Response, rows: Array<{ id: string }>, limit: number): void {
  if (rows.length < limit) return;
  const cursor = rows[rows.length - 1].id;
  res.setHeader('X-Next-Cursor', cursor);
  const url = new URL(res.req.originalUrl, 'http://placeholder');
  url.searchParams.set('cursor', cursor);
  res.setHeader('Link', `<${url.pathname}${url.search}>; rel="next"`);
}
