import { MAX_IMAGES, MAX_IMAGE_URL } from '../../src/shared/webviewMessages';
import { h, iconButton, replaceChildren } from '../infra/dom';

/** The same check the host applies to `send.images`. */
const IMAGE_DATA_URL = /^data:image\/(png|jpeg|gif|webp);base64,[A-Za-z0-9+/=]+$/;

/** Images pasted or dropped into the composer, as data URLs with thumbnails and remove buttons (at most 8). */
export class ImageAttachments {
  readonly root = h('div', { class: 'attachments', hidden: true, role: 'list', 'aria-label': 'Attached images' });
  private images: string[] = [];

  constructor(
    private readonly onChange: () => void,
    private readonly onRejected: (reason: string) => void,
  ) {}

  get urls(): readonly string[] {
    return this.images;
  }

  clear(): void {
    this.images = [];
    this.render();
  }

  /** Adds the image files among `files`; returns whether any was an image. */
  addFiles(files: readonly File[]): boolean {
    const images = files.filter((f) => f.type.startsWith('image/'));
    for (const file of images) void this.add(file);
    return images.length > 0;
  }

  private async add(file: File): Promise<void> {
    if (this.images.length >= MAX_IMAGES) return this.onRejected(`At most ${MAX_IMAGES} images per message.`);
    const url = await readAsDataUrl(file);
    if (!IMAGE_DATA_URL.test(url)) return this.onRejected('Only PNG, JPEG, GIF and WebP images can be attached.');
    if (url.length > MAX_IMAGE_URL) return this.onRejected('That image is too large to attach (over 20 MB encoded).');
    if (this.images.length >= MAX_IMAGES) return this.onRejected(`At most ${MAX_IMAGES} images per message.`);
    this.images = [...this.images, url];
    this.render();
  }

  private remove(index: number): void {
    this.images = this.images.filter((_, i) => i !== index);
    this.render();
  }

  private render(): void {
    this.root.hidden = this.images.length === 0;
    replaceChildren(
      this.root,
      ...this.images.map((url, i) =>
        h(
          'div',
          { class: 'attachment', role: 'listitem' },
          h('img', { src: url, alt: `Attached image ${i + 1}` }),
          iconButton('close', `Remove image ${i + 1}`, () => this.remove(i)),
        ),
      ),
    );
    this.onChange();
  }
}

function readAsDataUrl(file: File): Promise<string> {
  return new Promise((resolve) => {
    const reader = new FileReader();
    reader.onload = () => resolve(typeof reader.result === 'string' ? reader.result : '');
    reader.onerror = () => resolve('');
    reader.readAsDataURL(file);
  });
}
