#!/usr/bin/env node
// A terminal chat with the embedded core (dist/core.js): the quickest way to check a provider works before VS Code.
// Usage: node scripts/chat.mjs [--workspace DIR] [--model ID] [core flags…]
// Approvals are answered at the prompt (y = yes, a = always, s = allow for session, n = no).
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const modelFlag = args.indexOf('--model');
let model = modelFlag >= 0 ? args[modelFlag + 1] : undefined;
const core = spawn(process.execPath, [join(root, 'dist/core.js'), ...args], { stdio: ['pipe', 'pipe', 'inherit'] });
const rl = createInterface({ input: process.stdin, output: process.stdout });
const send = (cmd) => core.stdin.write(JSON.stringify(cmd) + '\n');
const ask = (q) => new Promise((r) => rl.question(q, r));
let busy = false;
let buffer = '';

core.stdout.setEncoding('utf8');
core.stdout.on('data', (chunk) => {
  buffer += chunk;
  let nl;
  while ((nl = buffer.indexOf('\n')) >= 0) {
    const line = buffer.slice(0, nl);
    buffer = buffer.slice(nl + 1);
    if (line.trim()) void onEvent(JSON.parse(line));
  }
});
core.on('exit', (code) => {
  console.log(`\n[core exited with ${code}]`);
  process.exit(code ?? 1);
});

async function onEvent(e) {
  switch (e.type) {
    case 'ready':
      model ??= e.models[0]?.id;
      console.log(
        `Catalyst Code — provider ${e.provider} (${e.base_url}), model ${model ?? '(none: log in first)'}, approval ${e.approval}`,
      );
      if (!e.anyLoggedIn) console.log('No provider has a key. Set one: see README "Configure a provider".');
      return prompt();
    case 'delta':
      return void process.stdout.write(e.text);
    case 'thinking':
      return void process.stdout.write(`\x1b[2m${e.text}\x1b[0m`);
    case 'tool_call':
      return console.log(`\n\x1b[36m⚙ ${e.name} ${e.args.slice(0, 200)}\x1b[0m`);
    case 'tool_result':
      return console.log(`\x1b[36m  → ${e.status}\x1b[0m ${String(e.output).split('\n')[0].slice(0, 160)}`);
    case 'approval_request': {
      if (e.diff) console.log(e.diff);
      const a = (await ask(`Allow ${e.tool}? [y]es / [n]o / [a]lways / [s]ession: `)).trim().toLowerCase();
      const decision = { y: 'yes', a: 'always', s: 'allow_session' }[a] ?? 'no';
      return send({ type: 'approve', request_id: e.request_id, decision });
    }
    case 'ask_request': {
      const answers = {};
      for (const q of e.questions) answers[q.id] = await ask(`${q.prompt}${q.options ? ` (${q.options.join(' / ')})` : ''}: `);
      return send({ type: 'ask_reply', request_id: e.request_id, answers });
    }
    case 'sudo_request':
      console.log(`\nThe agent wants to run with sudo: ${e.command} — refused from the terminal chat.`);
      return send({ type: 'sudo_reply', request_id: e.request_id, approved: false });
    case 'http_retry':
      return console.log(`\n[retrying: ${e.reason} (${e.status}), attempt ${e.attempt}]`);
    case 'error':
      return console.log(`\n\x1b[31merror: ${e.message}\x1b[0m`);
    case 'info':
      return console.log(`\n[${e.message}]`);
    case 'models':
      model ??= e.models[0]?.id;
      return;
    case 'done':
    case 'aborted':
      busy = false;
      console.log();
      return prompt();
  }
}

async function prompt() {
  if (busy) return;
  const text = (await ask('\n› ')).trim();
  if (!text) return prompt();
  if (text === '/exit' || text === '/quit') return core.stdin.end();
  if (!model) {
    console.log('No model available: configure a provider first (README).');
    return prompt();
  }
  busy = true;
  send({ type: 'send', prompt: text, model });
}

rl.on('SIGINT', () => (busy ? send({ type: 'abort' }) : core.stdin.end()));
send({
  type: 'init',
  protocol_version: 2,
  client: { name: 'catalyst-terminal-chat', version: '0.1.0', capabilities: ['run_ids', 'session_ids', 'event_sequence'] },
});
