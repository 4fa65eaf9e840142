// A fake core for the client fuzz: prints the hostile event corpus on stdout, each line followed by a probe event that
// carries what the client should make of the line, then an unterminated last line, then exits.
// Usage: node --import tsx eventPrinter.ts '<ClientCorpusSpec as JSON>'
import { hostileCorpus } from './hostileLines';
import type { ClientCorpusSpec } from './clientFuzz';

async function main(): Promise<void> {
  const spec = JSON.parse(process.argv[2]) as ClientCorpusSpec;
  const corpus = hostileCorpus({ seed: spec.seed, count: spec.count, vocabulary: 'events', giantSizes: spec.giantSizes });
  for (let n = 0; n < corpus.length; n++) {
    const line = corpus[n];
    await write(line.bytes());
    const probe = { type: 'fuzz_probe', n, expect: line.decoded(spec.maxLineBytes).kind, category: line.category };
    await write(Buffer.from(JSON.stringify(probe) + '\n'));
  }
  await write(Buffer.from(JSON.stringify({ type: 'fuzz_tail', n: corpus.length })));
}

function write(bytes: Buffer): Promise<void> {
  return new Promise((resolve) => {
    if (process.stdout.write(bytes)) resolve();
    else process.stdout.once('drain', resolve);
  });
}

void main();
