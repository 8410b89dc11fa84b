/**
 * @packageDocumentation
 * Private services started from installed binaries on loopback ports in temporary directories:
 * PostgreSQL, an S3-compatible store (OpenStack Swift) and Redis. The tests and the benchmarks of
 * the distributed mode start theirs with these.
 */
export { startPostgres, type PostgresServer } from './postgresServer.js';
export { startRedis, type RedisServer } from './redisServer.js';
export { startSwift, type SwiftServer } from './swiftServer.js';
