/** The tools of one turn as the loop offers them to the model and lets its calls through. */
import type { ToolSchema } from './types';

export interface TurnTools {
  /** The schemas offered to the model. */
  offered: ToolSchema[];
  /**
   * The names a call may use: the offered ones and any loaded tool held out of the schema for a reason its own run
   * explains (web_search with no search key answers in upstream's words, not "call load_tools").
   */
  callable: ReadonlySet<string>;
}
