import type { SessionState } from '../../shared/sessionState';
import { usageNotice } from '../presentation/usageNotice';
import type { WireEvent } from '../state/eventFields';
import { agentInfos, agentsReport } from './facets/agentFacet';
import type { ReportedAnswer } from './intentContext';
import { skillsReport } from './skillRequests';

/** The answers the user asked to see (`/stats`, `/context`, `/agents`, `/skills`): each next one becomes a notice. */
export class RequestedReports {
  private readonly requested = new Set<ReportedAnswer>();

  request(answer: ReportedAnswer): void {
    this.requested.add(answer);
  }

  /** The notice's text when `e` answers a request (read after the state took `e`); undefined otherwise. */
  noticeFor(e: WireEvent, state: SessionState): string | undefined {
    if (e.type === 'stats' && this.requested.delete('stats')) return usageNotice(state.usage);
    if (e.type === 'context_breakdown' && this.requested.delete('context_breakdown')) {
      const c = state.context;
      return c ? `Context: ${c.tokens.toLocaleString('en-US')} of ${c.window.toLocaleString('en-US')} tokens (${c.pct}%).` : undefined;
    }
    if (e.type === 'agents' && this.requested.delete('agents')) return agentsReport(agentInfos(e.agents));
    if (e.type === 'skills' && this.requested.delete('skills')) return skillsReport(state.skills ?? []);
    return undefined;
  }
}
