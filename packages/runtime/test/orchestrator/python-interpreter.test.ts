// Which interpreter runs a Python server: its .venv, else `uv run`, else python3, else a clear
// error. Real directories and real executable files on a PATH made for each case.
import { afterEach, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { findOnPath, pythonCommand } from '../../src/orchestrator/python-interpreter.js';

let root: string;
let server: string;
let bin: string;

function executable(path: string): string {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, '#!/bin/sh\nexit 0\n');
  chmodSync(path, 0o755);
  return path;
}

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'gym-python-interpreter-'));
  server = join(root, 'resources_servers', 'capitals');
  bin = join(root, 'bin');
  mkdirSync(server, { recursive: true });
  mkdirSync(bin);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('pythonCommand', () => {
  it("runs the server's own .venv/bin/python first, even with uv and python3 on PATH", () => {
    const venv = executable(join(server, '.venv', 'bin', 'python'));
    executable(join(bin, 'uv'));
    executable(join(bin, 'python3'));
    assert.deepEqual(pythonCommand('capitals', server, join(server, 'app.py'), { PATH: bin }), { command: venv, args: ['app.py'], via: 'venv' });
  });

  it('uses uv run when uv is on PATH: a pyproject.toml is a project uv prepares', () => {
    const uv = executable(join(bin, 'uv'));
    executable(join(bin, 'python3'));
    writeFileSync(join(server, 'pyproject.toml'), '[project]\nname = "capitals"\nversion = "0.1.0"\n');
    assert.deepEqual(pythonCommand('capitals', server, join(server, 'app.py'), { PATH: `${join(root, 'none')}${delimiter}${bin}` }), {
      command: uv,
      args: ['run', '--project', server, 'python', 'app.py'],
      via: 'uv',
    });
  });

  it('uses uv run with the requirements.txt when that is what the server declares, and no project otherwise', () => {
    const uv = executable(join(bin, 'uv'));
    assert.deepEqual(pythonCommand('capitals', server, join(server, 'app.py'), { PATH: bin }).args, ['run', '--no-project', 'python', 'app.py']);
    writeFileSync(join(server, 'requirements.txt'), 'fastapi\n');
    assert.deepEqual(pythonCommand('capitals', server, join(server, 'app.py'), { PATH: bin }), {
      command: uv,
      args: ['run', '--no-project', '--with-requirements', join(server, 'requirements.txt'), 'python', 'app.py'],
      via: 'uv',
    });
  });

  it('falls back to python3 from PATH', () => {
    const python3 = executable(join(bin, 'python3'));
    assert.deepEqual(pythonCommand('capitals', server, join(server, 'app.py'), { PATH: bin }), { command: python3, args: ['app.py'], via: 'python3' });
  });

  it('runs an entrypoint in a subdirectory by its path relative to the server directory, as the original', () => {
    executable(join(bin, 'python3'));
    assert.deepEqual(pythonCommand('capitals', server, join(server, 'src', 'app.py'), { PATH: bin }).args, [join('src', 'app.py')]);
  });

  it('without any interpreter: GYM_PYTHON_NOT_FOUND, saying how to prepare the environment', () => {
    writeFileSync(join(server, 'requirements.txt'), 'fastapi\n');
    assert.throws(
      () => pythonCommand('capitals', server, join(server, 'app.py'), { PATH: bin }),
      (error: Error & { code?: string }) => {
        assert.equal(error.code, 'GYM_PYTHON_NOT_FOUND');
        assert.match(error.message, /Server 'capitals' is a Python server \(app\.py\) but no Python interpreter was found/);
        assert.ok(error.message.includes(`cd ${server} && python3 -m venv .venv && .venv/bin/pip install -r requirements.txt`), error.message);
        assert.match(error.message, /install uv/);
        return true;
      },
    );
  });
});

describe('findOnPath', () => {
  it('skips files that are not executable and empty PATH entries', () => {
    const first = join(root, 'first');
    mkdirSync(first);
    writeFileSync(join(first, 'python3'), 'not executable');
    const python3 = executable(join(bin, 'python3'));
    assert.equal(findOnPath('python3', `${delimiter}${first}${delimiter}${bin}`), python3);
    assert.equal(findOnPath('python3', undefined), undefined);
  });
});
