import type { AppConfig } from '#app/config/app-config.js';
import { PasswordHasher } from './password-hasher.js';

const config = (passwordHashing: AppConfig['passwordHashing']) => ({ passwordHashing }) as AppConfig;

describe('PasswordHasher', () => {
  it('hashes with argon2id at the library’s cost (64 MiB, 3 passes) in the service', async () => {
    const hasher = new PasswordHasher(config('standard'));
    const hash = await hasher.hash('correct horse battery staple');
    expect(hash).toMatch(/^\$argon2id\$v=19\$m=65536,p=4,t=3\$/);
    await expect(hasher.verify(hash, 'correct horse battery staple')).resolves.toBe(true);
    await expect(hasher.verify(hash, 'wrong')).resolves.toBe(false);
  });

  it('hashes at the light cost for the test suite, and still verifies a hash made at the full one', async () => {
    const light = new PasswordHasher(config('light'));
    const hash = await light.hash('pw');
    expect(hash).toMatch(/^\$argon2id\$v=19\$m=1024,p=1,t=1\$/);
    await expect(light.verify(hash, 'pw')).resolves.toBe(true);
    const full = await new PasswordHasher(config('standard')).hash('pw');
    await expect(light.verify(full, 'pw')).resolves.toBe(true);
  });
});
