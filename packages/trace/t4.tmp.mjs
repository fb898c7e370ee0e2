import { DuckDBInstance } from '@duckdb/node-api';
import { writeFileSync } from 'node:fs';
writeFileSync('/tmp/dc/t4.jsonl', '{"type":"span","status":{"code":"UNSET","message":null},"scope":{"name":"n"}}\n{"type":"span","status":"OK","scope":5}\n{"type":"span","status":{"code":2,"message":"m"},"scope":[1]}\n{"type":"span","x":5}\n{"seq":7,"r":{"type":"log","service.name":"a"}}\n');
const i = await DuckDBInstance.create(':memory:'); const c = await i.connect();
const show = async (q) => { try { const r = await c.runAndReadAll(q); console.log(JSON.stringify(r.getRowObjectsJson())); } catch (e) { console.log('ERR', e.message); } };
await show(`SELECT row_number() over () seq, status.code AS c, json_type(status.code) t, status.message m, json_type(status.message) mt, scope.name sn, scope IS NULL sc FROM read_json('/tmp/dc/t4.jsonl', format='newline_delimited', ignore_errors=true, columns={type:'VARCHAR', status:'STRUCT(code JSON, message JSON)', scope:'STRUCT(name JSON)'})`);
await show(`SELECT seq, r.type, r."service.name" FROM read_json('/tmp/dc/t4.jsonl', format='newline_delimited', ignore_errors=true, columns={seq:'BIGINT', r:'STRUCT(type VARCHAR, "service.name" VARCHAR, attributes JSON)'})`);
await show(`SELECT x FROM (SELECT 1 AS x) WHERE CASE WHEN x > 0 THEN error('gym: boom') ELSE true END`);
