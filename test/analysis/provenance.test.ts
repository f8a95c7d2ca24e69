import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { analysisProvenance } from '../../lib/analysis/provenance';
import { abcDomain } from './helpers';

// SHA-256 test vectors of FIPS 180-2: "abc" and the empty message.
const SHA_ABC = 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad';
const SHA_EMPTY = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';

test('analysisProvenance: each input with its path as given and its SHA-256; a domain without a file gets nulls', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kst-provenance-'));
  try {
    const responses = join(dir, 'responses.jsonl');
    const domainFile = join(dir, 'abc.json');
    writeFileSync(responses, 'abc');
    writeFileSync(domainFile, '');
    const onDisk = { ...abcDomain(), file: domainFile };
    assert.deepEqual(analysisProvenance(responses, [onDisk, abcDomain('mem')]), {
      inputs: {
        responses: { file: responses, sha256: SHA_ABC },
        domains: [
          { id: 'abc', file: domainFile, sha256: SHA_EMPTY },
          { id: 'mem', file: null, sha256: null },
        ],
      },
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
