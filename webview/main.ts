import './infra/elements';
import { App } from './app';
import { bootWebview } from './infra/boot';

bootWebview((root, host, ui) => new App(root, host, ui));
