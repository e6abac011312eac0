import {
  type ArgumentMetadata,
  ValidationPipe,
  type ValidationError,
  type ValidationPipeOptions,
} from '@nestjs/common';
import { AppException, type FieldError } from '#app/common/errors/app.exception.js';
import { narrowerFor } from './narrower-bodies.js';
import { essentialConstraints } from './validation.rules.js';

function flatten(errors: ValidationError[], parent = ''): FieldError[] {
  return errors.flatMap((error) => {
    const field = parent ? `${parent}.${error.property}` : error.property;
    const own = essentialConstraints(error.constraints ?? {}).map((message) => ({ field, message }));
    return [...own, ...flatten(error.children ?? [], field)];
  });
}

/** Nest's pipe, validating a body that uses only a narrower DTO's fields as that DTO (`narrowerBody`). */
class AppValidationPipe extends ValidationPipe {
  override transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    const narrow = metadata.type === 'body' ? narrowerFor(metadata.metatype, value) : undefined;
    return super.transform(value, narrow ? { ...metadata, metatype: narrow } : metadata);
  }
}

/** Unknown fields refused, types converted, every field error listed (DESIGN §4). */
export function createValidationPipe(): ValidationPipe {
  return new AppValidationPipe(validationOptions());
}

/** The options of `createValidationPipe`, for a test to build Nest's own pipe as it would be without narrowing. */
export function validationOptions(): ValidationPipeOptions {
  return {
    whitelist: true,
    forbidNonWhitelisted: true,
    forbidUnknownValues: true,
    transform: true,
    transformOptions: { enableImplicitConversion: false },
    validationError: { target: false, value: false },
    exceptionFactory: (errors) => AppException.validation(flatten(errors)),
  };
}
