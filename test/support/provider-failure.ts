import { ProviderError } from '#app/infra/providers/provider-error.js';

/** The ProviderError a call fails with (fails the test if it succeeds or fails otherwise). */
export async function providerFailure(promise: Promise<unknown>): Promise<ProviderError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(ProviderError);
    return error as ProviderError;
  }
  throw new Error('expected the call to fail');
}
