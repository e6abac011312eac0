/** The connection string in use: the configured PostgreSQL, or the embedded server's loopback address. */
export const DATABASE_URL = Symbol('DATABASE_URL');
