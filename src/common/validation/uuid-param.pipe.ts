import { Injectable, type PipeTransform } from '@nestjs/common';
import { AppException } from '#app/common/errors/app.exception.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Ids are opaque to clients: a malformed one answers 404 like an unknown one (DESIGN §4). */
@Injectable()
export class UuidParam implements PipeTransform<string, string> {
  transform(value: string): string {
    if (!UUID.test(value)) throw AppException.notFound();
    return value.toLowerCase();
  }
}
