import { describe, expect, it } from 'vitest';
import { NOT_FOUND, SERIALIZATION, validation, wireError } from '../../helpers/errors.js';
import { createTable, describeTtl, disableTtl, enableTtl, put, START_MS, ttlEngine } from './helpers.js';

describe('DescribeTimeToLive (docs/streams-and-lambda.md §5.2)', () => {
  it('answers DISABLED without AttributeName for a table never configured', () => {
    const { engine } = ttlEngine();
    createTable(engine, 'Sessions');
    expect(describeTtl(engine, 'Sessions')).toEqual({
      TimeToLiveDescription: { TimeToLiveStatus: 'DISABLED' },
    });
  });

  it('answers ENABLED with the attribute right after enabling (never ENABLING)', () => {
    const { engine } = ttlEngine();
    createTable(engine, 'Sessions');
    enableTtl(engine, 'Sessions', 'expiresAt');
    expect(describeTtl(engine, 'Sessions')).toEqual({
      TimeToLiveDescription: { TimeToLiveStatus: 'ENABLED', AttributeName: 'expiresAt' },
    });
  });

  it('answers DISABLED without AttributeName after disabling', async () => {
    const { engine, clock } = ttlEngine();
    createTable(engine, 'Sessions');
    enableTtl(engine, 'Sessions');
    await clock.advance('1h');
    disableTtl(engine, 'Sessions');
    expect(describeTtl(engine, 'Sessions')).toEqual({
      TimeToLiveDescription: { TimeToLiveStatus: 'DISABLED' },
    });
  });

  it('returns ResourceNotFoundException for a missing table', () => {
    const { engine } = ttlEngine();
    expect(wireError(() => describeTtl(engine, 'Nope'))).toEqual({
      __type: NOT_FOUND,
      message: 'Requested resource not found: Table: Nope not found',
    });
  });

  it('lists a missing TableName in the constraint list', () => {
    const { engine } = ttlEngine();
    expect(wireError(() => engine.execute('DescribeTimeToLive', {}))).toEqual(
      validation(
        "1 validation error detected: Value null at 'tableName' failed to satisfy constraint: Member must not be null",
      ),
    );
  });

  it('leaves DescribeTable as the service shows it: no TTL member', () => {
    const { engine } = ttlEngine();
    createTable(engine, 'Sessions');
    const before = engine.execute('DescribeTable', { TableName: 'Sessions' });
    enableTtl(engine, 'Sessions');
    const after = engine.execute('DescribeTable', { TableName: 'Sessions' });
    expect(after).toEqual(before);
    expect(JSON.stringify(after)).not.toMatch(/TimeToLive/);
  });
});

describe('UpdateTimeToLive (docs/streams-and-lambda.md §5.1, §5.3, §5.4)', () => {
  it('echoes the specification when enabling and when disabling', async () => {
    const { engine, clock } = ttlEngine();
    createTable(engine, 'Sessions');
    expect(enableTtl(engine, 'Sessions', 'ttl')).toEqual({
      TimeToLiveSpecification: { AttributeName: 'ttl', Enabled: true },
    });
    await clock.advance('1h');
    expect(disableTtl(engine, 'Sessions', 'ttl')).toEqual({
      TimeToLiveSpecification: { AttributeName: 'ttl', Enabled: false },
    });
  });

  it('returns "already enabled" when enabling the same attribute again', () => {
    const { engine } = ttlEngine();
    createTable(engine, 'Sessions');
    enableTtl(engine, 'Sessions');
    expect(wireError(() => enableTtl(engine, 'Sessions'))).toEqual(
      validation('TimeToLive is already enabled'),
    );
  });

  it('returns "different AttributeName" when enabling another attribute while enabled', () => {
    const { engine } = ttlEngine();
    createTable(engine, 'Sessions');
    enableTtl(engine, 'Sessions', 'ttl');
    expect(wireError(() => enableTtl(engine, 'Sessions', 'expiry'))).toEqual(
      validation('TimeToLive is active on a different AttributeName: current AttributeName is ttl'),
    );
  });

  it('returns "already disabled" when disabling a table without TTL', () => {
    const { engine } = ttlEngine();
    createTable(engine, 'Sessions');
    expect(wireError(() => disableTtl(engine, 'Sessions'))).toEqual(
      validation('TimeToLive is already disabled'),
    );
  });

  it('returns "different AttributeName" when disabling with the wrong attribute', () => {
    const { engine } = ttlEngine();
    createTable(engine, 'Sessions');
    enableTtl(engine, 'Sessions', 'ttl');
    expect(wireError(() => disableTtl(engine, 'Sessions', 'dog'))).toEqual(
      validation('TimeToLive is active on a different AttributeName: current AttributeName is ttl'),
    );
  });

  it('refuses a second change within the default one-hour lock-out, then accepts it', async () => {
    const { engine, clock } = ttlEngine();
    createTable(engine, 'Sessions');
    enableTtl(engine, 'Sessions');
    await clock.advance(3_600_000 - 1);
    expect(wireError(() => disableTtl(engine, 'Sessions'))).toEqual(
      validation('Time to live has been modified multiple times within a fixed interval'),
    );
    await clock.advance(1);
    disableTtl(engine, 'Sessions');
    expect(wireError(() => enableTtl(engine, 'Sessions', 'other'))).toEqual(
      validation('Time to live has been modified multiple times within a fixed interval'),
    );
  });

  it('checks the state before the lock-out (as recorded against AWS)', () => {
    const { engine } = ttlEngine();
    createTable(engine, 'Sessions');
    enableTtl(engine, 'Sessions');
    expect(wireError(() => enableTtl(engine, 'Sessions'))).toEqual(
      validation('TimeToLive is already enabled'),
    );
  });

  it('takes the lock-out from EngineOptions.ttlChangeLockoutMs', async () => {
    const { engine, clock } = ttlEngine({ ttlChangeLockoutMs: 30 * 60_000 });
    createTable(engine, 'Sessions');
    enableTtl(engine, 'Sessions');
    await clock.advance('30m');
    expect(disableTtl(engine, 'Sessions')).toEqual({
      TimeToLiveSpecification: { AttributeName: 'ttl', Enabled: false },
    });
    expect(engine.region().tables.get('Sessions')!.timeToLive.lastChangedAt).toBe(START_MS + 30 * 60_000);
  });

  it('allows any change at once with a zero lock-out', () => {
    const { engine } = ttlEngine({ ttlChangeLockoutMs: 0 });
    createTable(engine, 'Sessions');
    enableTtl(engine, 'Sessions');
    disableTtl(engine, 'Sessions');
    enableTtl(engine, 'Sessions', 'other');
    expect(describeTtl(engine, 'Sessions')).toEqual({
      TimeToLiveDescription: { TimeToLiveStatus: 'ENABLED', AttributeName: 'other' },
    });
  });

  it('returns ResourceNotFoundException for a missing table', () => {
    const { engine } = ttlEngine();
    expect(wireError(() => enableTtl(engine, 'Nope'))).toEqual({
      __type: NOT_FOUND,
      message: 'Requested resource not found: Table: Nope not found',
    });
  });

  it('lists an empty or over-long AttributeName', () => {
    const { engine } = ttlEngine();
    createTable(engine, 'Sessions');
    expect(wireError(() => enableTtl(engine, 'Sessions', ''))).toEqual(
      validation(
        "1 validation error detected: Value '' at 'timeToLiveSpecification.attributeName' failed to satisfy constraint: Member must have length greater than or equal to 1",
      ),
    );
    const long = 'x'.repeat(256);
    expect(wireError(() => enableTtl(engine, 'Sessions', long))).toEqual(
      validation(
        `1 validation error detected: Value '${long}' at 'timeToLiveSpecification.attributeName' failed to satisfy constraint: Member must have length less than or equal to 255`,
      ),
    );
  });

  it('lists missing AttributeName, Enabled and TimeToLiveSpecification', () => {
    const { engine } = ttlEngine();
    createTable(engine, 'Sessions');
    const update = (spec: unknown) =>
      wireError(() =>
        engine.execute('UpdateTimeToLive', { TableName: 'Sessions', TimeToLiveSpecification: spec }),
      );
    expect(update({ Enabled: true })).toEqual(
      validation(
        "1 validation error detected: Value null at 'timeToLiveSpecification.attributeName' failed to satisfy constraint: Member must not be null",
      ),
    );
    expect(update({ AttributeName: 'ttl' })).toEqual(
      validation(
        "1 validation error detected: Value null at 'timeToLiveSpecification.enabled' failed to satisfy constraint: Member must not be null",
      ),
    );
    expect(update(undefined)).toEqual(
      validation(
        "1 validation error detected: Value null at 'timeToLiveSpecification' failed to satisfy constraint: Member must not be null",
      ),
    );
  });

  it('returns SerializationException for wrong member types', () => {
    const { engine } = ttlEngine();
    createTable(engine, 'Sessions');
    const update = (spec: unknown) =>
      wireError(() =>
        engine.execute('UpdateTimeToLive', { TableName: 'Sessions', TimeToLiveSpecification: spec }),
      );
    expect(update({ AttributeName: 'ttl', Enabled: 'dog' }).__type).toBe(SERIALIZATION);
    expect(update({ AttributeName: 3, Enabled: true }).__type).toBe(SERIALIZATION);
  });

  it('announces the table change (persistence, change log) only when it succeeds', () => {
    const { engine } = ttlEngine();
    createTable(engine, 'Sessions');
    const changes: string[] = [];
    engine.onTableChange(({ table, kind }) => changes.push(`${kind} ${table.name}`));
    enableTtl(engine, 'Sessions');
    wireError(() => enableTtl(engine, 'Sessions'));
    expect(changes).toEqual(['updated Sessions']);
  });

  it('changes no item when enabled or disabled (TTL is not schema)', async () => {
    const { engine, clock } = ttlEngine();
    createTable(engine, 'Sessions');
    put(engine, 'Sessions', { pk: { S: 'a' }, ttl: { S: 'not a number' } });
    const events: unknown[] = [];
    engine.onCommit((event) => events.push(event));
    enableTtl(engine, 'Sessions');
    await clock.advance('1h');
    disableTtl(engine, 'Sessions');
    expect(events).toEqual([]);
  });
});
