import { ValidationPipe, type ValidationError } from '@nestjs/common';
import { AppException, type FieldError } from '#app/common/errors/app.exception.js';
import { essentialConstraints } from './validation.rules.js';

function flatten(errors: ValidationError[], parent = ''): FieldError[] {
  return errors.flatMap((error) => {
    const field = parent ? `${parent}.${error.property}` : error.property;
    const own = essentialConstraints(error.constraints ?? {}).map((message) => ({ field, message }));
    return [...own, ...flatten(error.children ?? [], field)];
  });
}

/** Unknown fields refused, types converted, every field error listed (DESIGN §4). */
export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    forbidUnknownValues: true,
    transform: true,
    transformOptions: { enableImplicitConversion: false },
    validationError: { target: false, value: false },
    exceptionFactory: (errors) => AppException.validation(flatten(errors)),
  });
}
