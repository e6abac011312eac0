export default async function globalTeardown(): Promise<void> {
  await (globalThis as { __e2eDrop?: () => Promise<void> }).__e2eDrop?.();
}
