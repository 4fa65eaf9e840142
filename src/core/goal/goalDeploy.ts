/**
 * Deploys an accepted plan (upstream's `deploy_goal`, research A:850-912): waves in dependency order, each step a fresh
 * child run of our subagent runner under the goal's root run, at most `concurrency` at once; a failed step skips its
 * dependents. What follows the last wave (verify, or the wrap-up) is the lifecycle's.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { SubagentHost } from '../agents/subagentHost';
import { childMaxDepth } from '../agents/childTools';
import { findAgent } from '../agents/discovery';
import { mapInOrder } from '../platform/mapInOrder';
import { RunScope } from '../runtime/runScope';
import { stepArtifactPath } from './goalArtifacts';
import { ModelSlots } from './modelSlots';
import type { GoalController } from './goalController';
import type { Goal, GoalStepPrompt } from './goalTypes';
import { planWaves } from './planValidation';
import { withDependencyOutputs } from './workerPrompt';

const SKIPPED_SUMMARY = 'skipped: a dependency step failed or was skipped';

/** The goal's live deploy: cancelling it stops every worker (each still ends with `subagent_done{cancelled}`). */
export class GoalDeploy {
  readonly scope: RunScope;
  /** The classic validation reviewer could not run (a provider failure): the follow-up says some steps failed. */
  validationFailedToRun = false;
  /** The session file's record of this deploy: not yet written, started, or ended. */
  private journal: 'none' | 'open' | 'closed' = 'none';
  private readonly abort = new AbortController();

  constructor(
    private readonly ctl: GoalController,
    readonly goal: Goal,
  ) {
    this.scope = new RunScope(ctl.host.sessionId(), goal.id, 'goal');
  }

  get cancelled(): boolean {
    return this.abort.signal.aborted;
  }

  cancel(): void {
    if (this.cancelled) return;
    this.abort.abort();
    this.record('cancelled', 'goal cancelled during deploy');
    this.ctl.host.cancelChildren(this.scope);
  }

  /** Runs every wave; true when the deploy finished (not cancelled, not failed), so the follow-up may start. */
  async run(): Promise<boolean> {
    const { ctl, goal } = this;
    const route = ctl.host.route(goal.parentModel) ?? ctl.host.route(goal.settings.model);
    if (!route) {
      ctl.fail(`no provider serves model '${goal.settings.model}'`);
      return false;
    }
    ctl.host.emit({ type: 'info', message: 'Goal deploy: snapshotting workspace…' });
    await ctl.host.checkpointBeforeDeploy(goal.id, this.abort.signal);
    if (this.cancelled) return false;
    ctl.transition('deploying', 'deploying plan steps');
    this.record('started', 'deploying');
    const host = ctl.host.childHost(route, this.scope);
    const slots = new ModelSlots(goal.settings.modelConcurrency, goal.settings.concurrency);
    const waves = planWaves(goal.plan?.steps ?? []) ?? [];
    for (const [index, ids] of waves.entries()) {
      if (this.cancelled) return false;
      const wave = ids.map((id) => goal.prompts.find((p) => p.step_id === id)!);
      const runnable = wave.filter((prompt) => !this.skipIfBlocked(prompt));
      // Upstream's progress: the plan's step count, and how many steps have settled (done, failed or skipped).
      ctl.startWave(index + 1, goal.prompts.length, goal.prompts.filter((p) => p.status !== 'pending' && p.status !== 'running').length);
      for (const prompt of runnable) {
        prompt.run_id = host.allocateRunId();
        goal.activeRunIds.push(prompt.run_id);
        ctl.emitState();
      }
      await mapInOrder(runnable, goal.settings.concurrency, async (prompt) => {
        const release = await slots.acquire(prompt.model ?? route.model);
        try {
          await this.runStep(host, prompt);
        } finally {
          release();
        }
      });
      // Classic mode checks the plan's criteria once, after the last wave, when that wave had no failure (CEO mode verifies instead).
      const last = index === waves.length - 1;
      if (last && !goal.settings.ceoMode && !this.cancelled && goal.plan?.validation.length && !wave.some((p) => p.status === 'failed'))
        await this.validate(host, wave);
    }
    if (this.cancelled) return false;
    this.record('completed', 'deploy workers finished');
    return true;
  }

  /**
   * The deploy in the session file, as upstream journals it (kind `goal`, id = the goal id): a core that dies mid-deploy
   * finds it unfinished on the next start and reports it interrupted; the goal itself is not restored (upstream's isn't).
   */
  record(state: 'started' | 'completed' | 'cancelled' | 'failed', detail: string): void {
    if (state === 'started' ? this.journal !== 'none' : this.journal !== 'open') return;
    this.journal = state === 'started' ? 'open' : 'closed';
    const { host } = this.ctl;
    host.recordRun({ session_id: host.sessionId(), run_id: this.goal.id, kind: 'goal', state, timestamp_ms: Date.now(), detail });
  }

  /**
   * The classic validation reviewer (upstream's terminal-wave check): a `reviewer` child judges the criteria;
   * `goal_step_verdict`; a FAIL fails the last wave's done steps, a provider failure only says it could not run.
   */
  private async validate(host: SubagentHost, wave: GoalStepPrompt[]): Promise<void> {
    const { ctl, goal } = this;
    const agent = findAgent(host.agents(), 'reviewer');
    const task = validationTask(goal.plan!.validation);
    const ran = agent
      ? await host.runChild({
          agent,
          task,
          context: 'fresh',
          depth: 1,
          maxDepth: childMaxDepth(host.settings.maxDepth, agent),
          runId: host.allocateRunId(),
          parentRunId: goal.id,
          toolCallId: '',
          signal: this.abort.signal,
        })
      : { ok: false, output: "unknown agent 'reviewer'", state: 'failed' as const };
    if (this.cancelled) return;
    const pass = ran.output.toUpperCase().includes('VERDICT: PASS');
    const output = truncated(ran.output, 800);
    ctl.emit({ type: 'goal_step_verdict', ok: ran.ok && pass, provider_ok: ran.ok, output });
    if (!ran.ok) {
      this.validationFailedToRun = true;
      ctl.emit({ type: 'error', code: 'goal_validation_failed', message: `goal validation could not run: ${output}` });
      return;
    }
    if (pass) return;
    const failedNow = wave.filter((p) => p.status === 'done');
    for (const p of failedNow) {
      p.status = 'failed';
      p.summary = `verifier failed: ${output}`;
    }
    ctl.touch();
    for (const p of failedNow)
      ctl.emit({
        type: 'goal_step_complete',
        step_id: p.step_id,
        title: p.title,
        agent: p.agent,
        ok: false,
        status: 'failed',
        summary: p.summary!,
        run_id: p.run_id ?? undefined,
      });
    ctl.emitWorkState();
  }

  /** Cascading skip: a step whose dependency failed or was skipped is skipped too. */
  private skipIfBlocked(prompt: GoalStepPrompt): boolean {
    const { goal } = this;
    const step = goal.plan?.steps.find((s) => s.id === prompt.step_id);
    const blocked = step?.depends_on.some((dep) => {
      const status = goal.prompts.find((p) => p.step_id === dep)?.status;
      return status === 'failed' || status === 'skipped';
    });
    if (!blocked) return false;
    prompt.status = 'skipped';
    prompt.summary = SKIPPED_SUMMARY;
    this.reportStepEnd(prompt, false, SKIPPED_SUMMARY);
    return true;
  }

  private async runStep(host: SubagentHost, prompt: GoalStepPrompt): Promise<void> {
    const { ctl, goal } = this;
    const runId = prompt.run_id!;
    if (this.cancelled) return;
    prompt.status = 'running';
    ctl.emitState();
    ctl.emitWorkState();
    const agent = findAgent(host.agents(), prompt.agent);
    const timeoutSecs = ctl.host.workerTimeoutSecs();
    const timeout = AbortSignal.timeout(timeoutSecs * 1000);
    const ran = agent
      ? await host.runChild({
          agent,
          task: withDependencyOutputs(prompt.task, this.dependencies(prompt)),
          ...(prompt.model ? { model: prompt.model } : {}),
          context: 'fresh',
          depth: 1,
          maxDepth: childMaxDepth(host.settings.maxDepth, agent),
          runId,
          parentRunId: goal.id,
          toolCallId: '',
          signal: AbortSignal.any([this.abort.signal, timeout]),
        })
      : { ok: false, output: `unknown agent '${prompt.agent}'`, state: 'failed' as const };
    const timedOut = timeout.aborted && !this.cancelled && !ran.ok;
    const result = timedOut ? { ...ran, output: `goal worker timed out after ${timeoutSecs}s and was cancelled` } : ran;
    goal.activeRunIds = goal.activeRunIds.filter((id) => id !== runId);
    prompt.status = result.ok ? 'done' : 'failed';
    prompt.summary = result.output.length > 1600 ? `${result.output.slice(0, 1600)}…` : result.output;
    await this.writeArtifact(prompt.step_id, result.output);
    if (this.cancelled) return;
    this.reportStepEnd(prompt, result.ok, prompt.summary, runId);
  }

  /** A step's end (its status and summary already set on `prompt`): the goal's state, goal_step_complete, the work state. */
  private reportStepEnd(prompt: GoalStepPrompt, ok: boolean, summary: string, runId?: string): void {
    const { ctl } = this;
    ctl.emitState();
    ctl.emit({
      type: 'goal_step_complete',
      step_id: prompt.step_id,
      title: prompt.title,
      agent: prompt.agent,
      ok,
      status: prompt.status,
      summary,
      ...(runId ? { run_id: runId } : {}),
    });
    ctl.emitWorkState();
  }

  private dependencies(prompt: GoalStepPrompt): { prompt: GoalStepPrompt; artifact: string }[] {
    const step = this.goal.plan?.steps.find((s) => s.id === prompt.step_id);
    return (step?.depends_on ?? []).flatMap((dep) => {
      const done = this.goal.prompts.find((p) => p.step_id === dep);
      return done ? [{ prompt: done, artifact: this.artifactPath(dep) }] : [];
    });
  }

  /** `<ws>/.catalyst-code/goal-ux/artifacts/<goal id>/<step id>.md`; a failed write only goes to the log. */
  private async writeArtifact(stepId: string, output: string): Promise<void> {
    const path = this.artifactPath(stepId);
    try {
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, output);
    } catch (err) {
      this.ctl.host.log(`goal artifact ${path} not written: ${(err as Error).message}`);
    }
  }

  artifactPath(stepId: string): string {
    return stepArtifactPath(this.ctl.host.workspace, this.goal.id, stepId);
  }
}

/** The reviewer's task, in our own words: the criteria, and the verdict line the check reads. */
function validationTask(criteria: readonly string[]): string {
  return [
    '# Goal validation',
    'The steps of a goal have finished. Check the workspace against each of these criteria:',
    ...criteria.map((c) => `- ${c}`),
    '',
    'Run the diagnostics, build or tests where they help. Answer with your reasons, then `VERDICT: PASS` or `VERDICT: FAIL`.',
  ].join('\n');
}

/** At most `max` chars, marked with "…" when cut (upstream's truncate_str). */
function truncated(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
