// Textures (DDS, TGA, PNG, PAA): decoded by libferry in the worker, drawn on
// a 2D canvas over a checkerboard (what is see-through shows it), a level
// at a time, with or without alpha, or the alpha alone as grey.
export class TextureView {
  constructor(stage) {
    this.box = document.createElement('div');
    this.box.className = 'texture checker';
    this.canvas = document.createElement('canvas');
    this.box.appendChild(this.canvas);
    stage.appendChild(this.box);
    this.mode = 'rgba';
  }

  // img: {width, height, rgba (ArrayBuffer)}.
  show(img) {
    this.img = img;
    this.draw();
  }

  setMode(mode) { this.mode = mode; this.draw(); }

  draw() {
    const { width, height, rgba } = this.img;
    this.canvas.width = width;
    this.canvas.height = height;
    const src = new Uint8ClampedArray(rgba);
    const px = new Uint8ClampedArray(src);
    if (this.mode === 'rgb') for (let i = 3; i < px.length; i += 4) px[i] = 255;
    if (this.mode === 'alpha') for (let i = 0; i < px.length; i += 4) { px[i] = px[i + 1] = px[i + 2] = src[i + 3]; px[i + 3] = 255; }
    this.canvas.getContext('2d').putImageData(new ImageData(px, width, height), 0, 0);
    // Small levels are shown larger, pixel for pixel.
    const scale = Math.max(1, Math.floor(256 / Math.max(width, height)));
    this.canvas.style.width = `${width * scale}px`;
    this.canvas.style.height = `${height * scale}px`;
  }

  dispose() { this.box.remove(); }
}
