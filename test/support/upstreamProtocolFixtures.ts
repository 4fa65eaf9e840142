// Upstream's protocol fixtures, copied verbatim from catalystctl/catcode at commit
// 15165dbea07d0b888cb291d6d47c2d90423f67f9: protocol/fixtures/init-v2.json and protocol/fixtures/commands-v2.jsonl
// (one command of each of upstream's 73 types, as upstream's own client would send them). Copied so that the tests
// need neither upstream's repository nor the network. Upstream's copyright and license (MIT), from its LICENSE:
//
// MIT License
//
// Copyright (c) 2025 karutoil
//
// Permission is hereby granted, free of charge, to any person obtaining a copy
// of this software and associated documentation files (the "Software"), to deal
// in the Software without restriction, including without limitation the rights
// to use, copy, modify, merge, publish, distribute, sublicense, and/or sell
// copies of the Software, and to permit persons to whom the Software is
// furnished to do so, subject to the following conditions:
//
// The above copyright notice and this permission notice shall be included in all
// copies or substantial portions of the Software.
//
// THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
// IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,
// FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE
// AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER
// LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM,
// OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE
// SOFTWARE.

/** protocol/fixtures/init-v2.json: the `init` of an upstream client (capabilities run_ids, session_ids, event_sequence). */
export const UPSTREAM_FIXTURE_INIT = `{"type":"init","protocol_version":2,"client":{"name":"fixture-client","version":"1.0.0","capabilities":["run_ids","session_ids","event_sequence"]}}`;

/** protocol/fixtures/commands-v2.jsonl, one JSON command a line (its first line is an `init` too). */
export const UPSTREAM_FIXTURE_COMMANDS = `{"type":"init","protocol_version":2,"client":{"name":"fixture","version":"1","capabilities":["run_ids"]}}
{"type":"set_key","api_key":"fixture","provider":"default"}
{"type":"set_search_key","provider":"exa","api_key":"fixture"}
{"type":"set_provider","name":"default"}
{"type":"list_provider_presets"}
{"type":"login","preset":"umans","api_key":"fixture"}
{"type":"logout","provider":"umans"}
{"type":"login_oauth","preset":"fixture"}
{"type":"oauth_code","code":"fixture"}
{"type":"send","prompt":"hello","model":"mock-model"}
{"type":"steer","prompt":"redirect","model":"mock-model"}
{"type":"abort"}
{"type":"clear_queue"}
{"type":"reset"}
{"type":"clear"}
{"type":"undo"}
{"type":"create_checkpoint","label":"fixture","paths":["README.md"]}
{"type":"list_checkpoints"}
{"type":"restore_checkpoint","id":"checkpoint-1"}
{"type":"compact","instructions":"preserve tests"}
{"type":"list_sessions"}
{"type":"load_session","path":"session.jsonl"}
{"type":"rename_session","path":"session.jsonl","title":"Fixture"}
{"type":"delete_session","path":"old.jsonl"}
{"type":"pin_session","path":"session.jsonl","pinned":true}
{"type":"new_session","path":"new.jsonl"}
{"type":"stats"}
{"type":"runtime_status"}
{"type":"context"}
{"type":"usage","model":"mock-model"}
{"type":"approve","request_id":"approval-1","decision":"yes"}
{"type":"set_approval","mode":"destructive"}
{"type":"set_config","key":"bash_timeout_secs","value":30}
{"type":"install_plugin","path":"fixture/plugin","scope":"workspace"}
{"type":"remove_plugin","name":"fixture"}
{"type":"enable_plugin","name":"fixture"}
{"type":"disable_plugin","name":"fixture"}
{"type":"list_plugins"}
{"type":"reload_plugins"}
{"type":"plugin_trust_prompt"}
{"type":"plugin_trust_decisions","decisions":{}}
{"type":"plugin_command","name":"fixture","args":"value"}
{"type":"list_plugin_commands"}
{"type":"list_agents"}
{"type":"refresh_memory"}
{"type":"save_memory","text":"fixture","tags":["test"],"scope":"workspace"}
{"type":"list_memory"}
{"type":"forget_memory","id":"fixture","scope":"workspace"}
{"type":"intercom_reply","request_id":"ask-1","reply":"yes"}
{"type":"ask_reply","request_id":"ask-1","answers":null}
{"type":"sudo_reply","request_id":"sudo-1","approved":false}
{"type":"get_vision_config"}
{"type":"set_vision_config","enabled":true,"vision_models":[],"vision_model":null}
{"type":"list_skills"}
{"type":"refresh_models"}
{"type":"apply_skill","name":"fixture","task":"run","model":"mock-model"}
{"type":"start_goal","goal":"fixture","model":"mock-model","auto_deploy":false}
{"type":"cancel_goal"}
{"type":"goal_status"}
{"type":"approve_goal_plan"}
{"type":"revise_goal","feedback":"revise","model":"mock-model"}
{"type":"user_bash","command":"true","exclude_from_context":true}
{"type":"add_custom_provider","name":"fixture-provider","base_url":"https://api.fixture.example/v1","kind":"openai","api_key":"fixture","api_key_env":"FIXTURE_API_KEY","headers":{"X-Org":"fixture"},"context_window":200000}
{"type":"discover_provider_models","base_url":"https://api.fixture.example/v1","kind":"openai","api_key":"fixture"}
{"type":"get_sandbox_status"}
{"type":"prepare_sandbox"}
{"type":"reset_sandbox"}
{"type":"list_marketplace_skills"}
{"type":"accept_skill_disclaimer"}
{"type":"search_marketplace_skills","query":"react"}
{"type":"install_marketplace_skill","source":"anthropics/skills","name":"frontend-design","scope":"project"}
{"type":"update_marketplace_skill","name":"frontend-design","scope":"project"}
{"type":"remove_marketplace_skill","name":"frontend-design","scope":"project"}
`;
