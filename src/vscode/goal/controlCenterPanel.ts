import type * as vscode from 'vscode';
import type { ChatHub } from '../chatHub';
import { GOAL_PANEL_ID } from '../ids';
import { SingletonWebviewPanel } from '../singletonWebviewPanel';

/**
 * Goal mode's Control Center: one editor tab showing the session's goal (the start form, the plan to review, the waves
 * and their child runs, verdicts, the summary). It is a webview in placement 'controlCenter' — its own bundle,
 * dist/controlCenter.js — attached to the same hub as the chat, so it shares the live session state; restored after a
 * window reload through the serializer. `visible()` tells whether a goal notification would be noise.
 */
export class ControlCenterPanel extends SingletonWebviewPanel {
  constructor(hub: ChatHub, extensionUri: vscode.Uri) {
    super(hub, extensionUri, { viewType: GOAL_PANEL_ID, title: 'Goal — Catalyst Code', placement: 'controlCenter' });
  }
}
