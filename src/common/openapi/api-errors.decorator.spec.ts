import { Controller, Get, Post } from '@nestjs/common';
import { ApiErrors } from './api-errors.decorator.js';

type Responses = Record<
  string,
  { description: string; examples: Record<string, { value: { code: string } }> }
>;

/** Where @nestjs/swagger keeps a route's responses (its DECORATORS.API_RESPONSE, not exported). */
const API_RESPONSE = 'swagger/apiResponse';

const responsesOf = (handler: unknown): Responses =>
  Reflect.getMetadata(API_RESPONSE, handler as object) as Responses;

@Controller('x')
@ApiErrors(401)
class ExampleController {
  @Post()
  @ApiErrors('RAFFLE_CLOSED')
  @ApiErrors(400, 'RAFFLE_NOT_STARTED', 'SOLD_OUT')
  create(): void {}

  @Get()
  list(): void {}
}

describe('@ApiErrors', () => {
  it('lists every code a status can carry, one example each, across decorators', () => {
    const responses = responsesOf(ExampleController.prototype.create);
    expect(Object.keys(responses['409'].examples)).toEqual(['RAFFLE_NOT_STARTED', 'RAFFLE_CLOSED']);
    expect(responses['409'].examples.RAFFLE_CLOSED.value.code).toBe('RAFFLE_CLOSED');
    expect(responses['409'].description).toContain('`RAFFLE_NOT_STARTED`: This raffle has not started yet');
    expect(Object.keys(responses['422'].examples)).toEqual(['SOLD_OUT']);
    expect(responses['400'].examples.VALIDATION_FAILED.value.code).toBe('VALIDATION_FAILED');
  });

  it('on a controller, adds its codes to every route', () => {
    expect(Object.keys(responsesOf(ExampleController.prototype.create)['401'].examples)).toEqual([
      'UNAUTHENTICATED',
    ]);
    expect(Object.keys(responsesOf(ExampleController.prototype.list)['401'].examples)).toEqual([
      'UNAUTHENTICATED',
    ]);
  });
});
