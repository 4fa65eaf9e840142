import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { deniedCommandReason } from './bashDenylist';

describe('deniedCommandReason', () => {
  test('trips on the catastrophic commands', () => {
    for (const command of [
      'rm -rf /',
      'rm  -fr  /',
      'sudo rm -r -f ~',
      'cd x && rm -Rf $HOME',
      'rm --recursive --force /*',
      'mkfs.ext4 /dev/sda1',
      'dd if=/dev/zero of=/dev/sda bs=1M',
      ':(){ :|:& };:',
      'echo x > /dev/nvme0n1',
    ]) {
      assert.ok(deniedCommandReason(command), command);
    }
  });

  test('lets ordinary commands through', () => {
    for (const command of [
      'rm -rf /tmp/build',
      'rm -rf ./dist',
      'rm -f ~/notes.txt',
      'rm ~',
      'dd if=a of=b',
      'echo mkfs is a word',
      'ls /',
      'npm run build',
    ]) {
      assert.equal(deniedCommandReason(command), undefined, command);
    }
  });
});
