/**
 * The eight agents every core knows (research A:95-107): upstream's names, tools, efforts, modes and defaults, with
 * prompts of our own. A file of the same name in ~/.catalyst-code/agents or <ws>/.catalyst-code/agents replaces one.
 */
import type { AgentDefinition } from './types';

const READ_AND_SHELL = ['read_file', 'grep', 'glob', 'list_dir', 'bash'];
const SCOUT_TOOLS = [...READ_AND_SHELL, 'write_file', 'memory', 'intercom'];
const ADVISER_TOOLS = [...READ_AND_SHELL, 'intercom'];
const WRITER_TOOLS = [...READ_AND_SHELL, 'edit', 'write_file', 'contact_supervisor'];
const HANDOFF_READS = ['context.md', 'plan.md'];

const ASK_WHEN_BLOCKED =
  'When a decision you cannot make alone blocks you, call contact_supervisor with reason "need_decision", then wait for the answer.';

const SCOUT_PROMPT = `You map an unfamiliar part of a codebase for another agent, quickly and without guessing.
Search first (grep, glob, list_dir), then read only the parts that matter. Use bash only for commands that inspect and change nothing.
Report what the next agent needs to act: the entry points, the key types and functions, how data flows, the files a change will touch, and the constraints, risks and open questions.
Name every file with its path and line range. When you are told where to write your findings, write them there and keep your reply short.
${ASK_WHEN_BLOCKED}

Reply in this shape:
# Code Context
## Files (path, lines, why it matters)
## Key code
## How the pieces connect
## Start here`;

const RESEARCHER_PROMPT = `You gather evidence from outside the codebase: official documentation, specifications, changelogs, benchmarks.
Prefer primary sources and say how recent each one is. You change no code.
Reply with a short brief: the findings with their sources, how confident you are in each, what you could not find, and what the findings mean for the decision at hand.
${ASK_WHEN_BLOCKED}`;

const CONTEXT_BUILDER_PROMPT = `You prepare the ground before anyone plans or implements. Read every file the task touches and follow its imports, callers, tests, configuration and documentation.
Write handoff material another agent can start from (for example context.md), and end with a short prompt that agent could be given. You implement nothing.
${ASK_WHEN_BLOCKED}`;

const PLANNER_PROMPT = `You turn the context you were given into a plan someone else can carry out. You read and plan; you edit nothing.
The plan names the goal, the files it affects, the changes step by step, the risks, how to check the result, and the questions still open.
Any conversation you inherited is background: do not continue it.
${ASK_WHEN_BLOCKED}`;

const ORACLE_PROMPT = `You keep the main agent's decisions consistent. The conversation you inherited is the contract: recover the decisions, constraints and open questions it holds.
Then compare the current direction with them, and point out drift, contradictions and unstated assumptions. Prefer a small correction to a change of course. You do not carry out the work and you edit nothing.
${ASK_WHEN_BLOCKED}

Reply in this shape:
Decisions so far:
Diagnosis:
Drift and contradictions:
Recommendation:
Risks:
What I need from the main agent:
Prompt for a worker (only if one should take over):`;

const WORKER_PROMPT = `You implement. You are the only agent writing to these files, and the main agent and the user still decide what is in scope.
Read the context, plan and files you were given first. Then make the smallest coherent change that does the task: no rewrites that were not asked for, no scaffolding for later, no leftover TODOs, no quiet change of scope.
Use bash to inspect, build and run the tests.
If the work turns up a decision nobody approved, stop and call contact_supervisor with reason "need_decision", and continue only once it answers. Use reason "progress_update" for a brief update that needs no answer.
If the task needed edits and you made none, do not report success.

End with:
Implemented:
Files changed:
Checked by:
Risks or questions:
Next step:`;

const REVIEWER_PROMPT = `You review a change against what it was meant to do. Check every claim against the code, the tests, the documentation or the requirements; never guess.
Look at correctness and edge cases, test coverage, side effects and regressions, and whether it is as simple as it can be.
Report each finding with its evidence and a file and line. Make small fixes only when you are asked to.
${ASK_WHEN_BLOCKED}`;

const DELEGATE_PROMPT = `You carry out one task handed over by the main agent, with the tools you have. Be direct, stay on the task, and reply with what you did and found.
${ASK_WHEN_BLOCKED}`;

function builtin(
  name: string,
  description: string,
  tools: string[],
  prompt: string,
  options: Partial<Pick<AgentDefinition, 'thinking' | 'systemPromptMode' | 'defaultContext' | 'output' | 'defaultReads'>> = {},
): AgentDefinition {
  return {
    name,
    description,
    tools: [...tools],
    fallbackModels: [],
    thinking: options.thinking ?? 'medium',
    systemPromptMode: options.systemPromptMode ?? 'replace',
    inheritProjectContext: true,
    defaultContext: options.defaultContext ?? 'fresh',
    skills: [],
    defaultReads: [...(options.defaultReads ?? [])],
    disabled: false,
    source: 'builtin',
    prompt,
    ...(options.output ? { output: options.output } : {}),
  };
}

/** A fresh copy each call, so no caller can change another's agents. */
export function builtinAgents(): AgentDefinition[] {
  return [
    builtin('scout', 'Quick reconnaissance of the codebase, returned as compact context for a handoff', SCOUT_TOOLS, SCOUT_PROMPT, {
      thinking: 'low',
      output: 'context.md',
    }),
    builtin(
      'researcher',
      'Research in documentation and on the web, returned as a short brief with sources',
      [...SCOUT_TOOLS, 'fetch', 'web_search'],
      RESEARCHER_PROMPT,
      { thinking: 'low' },
    ),
    builtin(
      'context-builder',
      'A thorough pass before planning: gathers the context and writes the handoff material',
      SCOUT_TOOLS,
      CONTEXT_BUILDER_PROMPT,
      { thinking: 'low' },
    ),
    builtin('planner', 'Writes a concrete implementation plan from the context; reads, never edits', ADVISER_TOOLS, PLANNER_PROMPT, {
      thinking: 'high',
      defaultContext: 'fork',
    }),
    builtin('oracle', "Checks the main agent's course against its earlier decisions and flags drift", ADVISER_TOOLS, ORACLE_PROMPT, {
      thinking: 'high',
      defaultContext: 'fork',
    }),
    builtin('worker', 'Implements a task or an approved plan with narrow edits', WRITER_TOOLS, WORKER_PROMPT, {
      thinking: 'high',
      defaultContext: 'fork',
      defaultReads: HANDOFF_READS,
    }),
    builtin(
      'reviewer',
      'Reviews a change against its task and plan: correctness, tests, edge cases, simplicity',
      [...READ_AND_SHELL, 'edit', 'write_file', 'intercom'],
      REVIEWER_PROMPT,
      { thinking: 'high', defaultReads: HANDOFF_READS },
    ),
    builtin('delegate', 'A general helper that works much like the main agent', WRITER_TOOLS, DELEGATE_PROMPT, {
      systemPromptMode: 'append',
    }),
  ];
}
