/**
 * @packageDocumentation
 * Private services started from installed binaries on loopback ports in temporary directories:
 * PostgreSQL, an S3-compatible store (OpenStack Swift), Redis and Prometheus. The tests and the benchmarks of
 * the distributed mode start theirs with these, and count what is asked of them with `countedCalls`.
 */
export { startPostgres, type PostgresServer } from './postgresServer.js';
export { startRedis, type RedisServer } from './redisServer.js';
export { startSwift, type SwiftServer } from './swiftServer.js';
export { startPrometheus, type PrometheusSample, type PrometheusServer } from './prometheusServer.js';
export { countedCalls } from './countedCalls.js';
