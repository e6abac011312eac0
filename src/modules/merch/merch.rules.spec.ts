import {
  afterSubmitFailure,
  assetList,
  byProviderId,
  missingShipping,
  nextStage,
  priceOrder,
  refundsOn,
  refusesTheOrder,
  stageOf,
  stageOnSubmit,
} from './merch.rules.js';

const product = (id: string, amount_cents: number, currency = 'GBP', active = true) => ({
  id,
  amount_cents,
  currency,
  active,
});

describe('merch rules', () => {
  const products = new Map([
    ['tee', product('tee', 1500)],
    ['mug', product('mug', 899)],
    ['old', product('old', 100, 'GBP', false)],
    ['usd', product('usd', 100, 'USD')],
    ['free', product('free', 0)],
  ]);

  it('prices an order as each product’s price times its copies', () => {
    const priced = priceOrder(products, [
      { merch_product_id: 'tee', copies: 2 },
      { merch_product_id: 'mug', copies: 1 },
    ]);
    expect(priced).toMatchObject({ ok: true, amountCents: 3899, currency: 'GBP' });
    if (priced.ok) expect(priced.lines.map((l) => l.cents)).toEqual([3000, 899]);
  });

  it('refuses a product that is unknown, of another site or withdrawn', () => {
    expect(priceOrder(products, [{ merch_product_id: 'nope', copies: 1 }])).toEqual({
      ok: false,
      code: 'PRODUCT_NOT_AVAILABLE',
      productId: 'nope',
    });
    expect(priceOrder(products, [{ merch_product_id: 'old', copies: 1 }])).toMatchObject({
      ok: false,
      code: 'PRODUCT_NOT_AVAILABLE',
    });
    // Priced 0 before products had to cost at least 1: no gateway takes a payment of nothing.
    expect(priceOrder(products, [{ merch_product_id: 'free', copies: 1 }])).toMatchObject({
      ok: false,
      code: 'PRODUCT_NOT_AVAILABLE',
    });
  });

  it('refuses an order in two currencies', () => {
    expect(
      priceOrder(products, [
        { merch_product_id: 'tee', copies: 1 },
        { merch_product_id: 'usd', copies: 1 },
      ]),
    ).toEqual({ ok: false, code: 'MIXED_CURRENCIES' });
  });

  it('maps the provider’s stages to ours', () => {
    expect(stageOf('InProgress')).toBe('in_progress');
    expect(stageOf('Complete')).toBe('complete');
    expect(stageOf('Cancelled')).toBe('cancelled');
    expect(stageOf('Whatever')).toBeNull();
  });

  it('moves only forward, never out of a final stage, never before the order is sent', () => {
    expect(nextStage('submitted', 'in_progress')).toBe('in_progress');
    expect(nextStage('submitted', 'complete')).toBe('complete');
    expect(nextStage('in_progress', 'in_progress')).toBeNull();
    expect(nextStage('complete', 'in_progress')).toBeNull();
    expect(nextStage('complete', 'cancelled')).toBeNull();
    expect(nextStage('cancelled', 'complete')).toBeNull();
    expect(nextStage('awaiting_payment', 'complete')).toBeNull();
    expect(nextStage('in_progress', null)).toBeNull();
  });

  it('refunds cancelled and failed orders only', () => {
    expect(refundsOn('cancelled')).toBe(true);
    expect(refundsOn('failed')).toBe(true);
    expect(refundsOn('complete')).toBe(false);
  });

  it('lists assets by print area', () => {
    expect(assetList({ front: 'https://x/a.png' })).toEqual([{ printArea: 'front', url: 'https://x/a.png' }]);
  });

  it('names each required address field that is absent or blank, and nothing for a full address', () => {
    const full = {
      recipient_name: 'Jane Doe',
      address_line1: '1 High Street',
      town_or_city: 'London',
      postal_or_zip_code: 'SW1A 1AA',
      country_code: 'GB',
    };
    expect(missingShipping(full)).toEqual([]);
    expect(missingShipping({})).toEqual([
      'recipient_name',
      'address_line1',
      'town_or_city',
      'postal_or_zip_code',
      'country_code',
    ]);
    expect(missingShipping({ ...full, recipient_name: '  ', country_code: undefined })).toEqual([
      'recipient_name',
      'country_code',
    ]);
  });

  it('keys the provider’s shipments and charges by its ids, keeping entries without one by position', () => {
    const a = { id: 'shp_a', tracking: { number: '1' } };
    const b = { id: 'shp_b' };
    expect(byProviderId([a, b])).toEqual({ shp_a: a, shp_b: b });
    expect(Object.keys(byProviderId([a, b]))).toEqual(['shp_a', 'shp_b']);
    expect(byProviderId([{ carrier: 'x' }, a, { ...a, note: 'twice' }])).toEqual({
      0: { carrier: 'x' },
      shp_a: a,
      2: { ...a, note: 'twice' },
    });
    expect(byProviderId([])).toEqual({});
    expect(byProviderId(null)).toEqual({});
  });
  describe('after a submission attempt that got no order back', () => {
    const attempt = (over: Partial<Parameters<typeof afterSubmitFailure>[0]>) =>
      afterSubmitFailure({
        refused: false,
        mayHaveActed: false,
        lastAttempt: false,
        earlierMayHaveActed: false,
        ...over,
      });

    it('fails a refused order at once, whatever came before', () => {
      expect(attempt({ refused: true })).toBe('fail');
      expect(attempt({ refused: true, earlierMayHaveActed: true })).toBe('fail');
    });

    it('counts a 4xx about the order as its refusal, but not one of our key or URL, nor an outage', () => {
      expect(refusesTheOrder({ kind: 'rejected', httpStatus: 400 })).toBe(true);
      expect(refusesTheOrder({ kind: 'rejected', httpStatus: 422 })).toBe(true);
      for (const httpStatus of [401, 403, 404])
        expect(refusesTheOrder({ kind: 'rejected', httpStatus })).toBe(false);
      expect(refusesTheOrder({ kind: 'unavailable', httpStatus: 503 })).toBe(false);
      expect(refusesTheOrder({ kind: 'unavailable' })).toBe(false);
    });

    it('leaves an attempt before the last to the job’s back-off', () => {
      expect(attempt({ mayHaveActed: true })).toBe('retry');
      expect(attempt({})).toBe('retry');
    });

    it('never fails an order the provider may have made: it is sent again later', () => {
      expect(attempt({ lastAttempt: true, mayHaveActed: true })).toBe('later');
      expect(attempt({ lastAttempt: true, earlierMayHaveActed: true })).toBe('later');
    });

    it('fails an order whose every attempt provably never reached the provider', () => {
      expect(attempt({ lastAttempt: true })).toBe('fail');
    });
  });
  it('takes a final stage from the provider’s answer to a submission, and is submitted otherwise', () => {
    expect(stageOnSubmit('InProgress')).toBe('submitted');
    expect(stageOnSubmit('Unknown')).toBe('submitted');
    expect(stageOnSubmit('Cancelled')).toBe('cancelled');
    expect(stageOnSubmit('Failed')).toBe('failed');
    expect(stageOnSubmit('Complete')).toBe('complete');
  });
});
