import { DuckDBInstance } from '@duckdb/node-api';
const i = await DuckDBInstance.create(':memory:', {memory_limit:'512MB', threads:'2'}); const c = await i.connect();
const f = process.argv[2];
const cols = `{type: 'VARCHAR', trace_id: 'VARCHAR', span_id: 'VARCHAR', parent_span_id: 'VARCHAR', name: 'VARCHAR', kind: 'VARCHAR',
  start_time_unix_nano: 'VARCHAR', end_time_unix_nano: 'VARCHAR', end_time: 'VARCHAR', status: 'STRUCT(code JSON, message JSON)', attributes: 'JSON', events: 'JSON', links: 'JSON',
  resource: 'STRUCT(attributes JSON)', scope: 'STRUCT(name JSON, version JSON)', "service.name": 'VARCHAR', "service.instance.id": 'VARCHAR', "process.pid": 'VARCHAR'}`;
const q = {
 plain: `COPY (SELECT * FROM read_json('${f}', format='newline_delimited', ignore_errors=true, columns=${cols}) WHERE type='span') TO '/tmp/dc/o.parquet' (FORMAT parquet, COMPRESSION zstd)`,
 seq: `COPY (SELECT * FROM (SELECT row_number() OVER () AS seq, * FROM read_json('${f}', format='newline_delimited', ignore_errors=true, columns=${cols})) WHERE type='span') TO '/tmp/dc/o.parquet' (FORMAT parquet, COMPRESSION zstd)`,
 norm: `COPY (SELECT seq, lower(trace_id), lower(span_id), name, kind, CAST(start_time_unix_nano AS BIGINT), CAST(attributes AS VARCHAR) a,
     CASE WHEN json_type(status.code)='VARCHAR' THEN status.code->>'$' END sc, CAST(resource.attributes AS VARCHAR) ra, resource.attributes->>'$."service.name"' svc, scope.name->>'$' sn
   FROM (SELECT row_number() OVER () AS seq, * FROM read_json('${f}', format='newline_delimited', ignore_errors=true, columns=${cols})) WHERE type='span') TO '/tmp/dc/o.parquet' (FORMAT parquet, COMPRESSION zstd)`,
};
for (const k of process.argv.slice(3)) {
  const t = process.cpuUsage(); const w = performance.now();
  const r = await c.runAndReadAll((process.env.EXPLAIN ? 'EXPLAIN ANALYZE ' : '') + q[k]);
  const d = process.cpuUsage(t);
  console.log(k, ((d.user+d.system)/1e6).toFixed(2), 'cpu', ((performance.now()-w)/1e3).toFixed(2), 'wall', process.resourceUsage().maxRSS/1024|0, 'MiB');
  if (process.env.EXPLAIN) console.log(String(r.getRows()[0][1]));
}
