import './infra/elements';
import { ControlCenterApp } from './goal/controlCenterApp';
import { bootWebview } from './infra/boot';

// The Goal Control Center's own bundle (dist/controlCenter.js): the chat's bundle does not carry it.
bootWebview((root, host, ui) => new ControlCenterApp(root, host, ui));
