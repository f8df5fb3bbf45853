// Particle systems: libferry simulates them in the worker and gives the
// sprites as ferry_particle_render draws them (ferry_particle_sprites: quads
// in world space, back to front, with their texture element, colour and
// blend class); a ParticleLayer draws those quads with WebGL in that order,
// each blended as docs/formats/alo-particle.md ("Drawing") says. The
// systems are the library's particle view (particle_view.h): one system, or
// those a model's proxies name, placed at their bones as the game places
// them. ParticleView shows them alone over the grey checkerboard `ferry
// render` uses (Alamo is z-up: so is its camera); a ModelView adds the
// layer to a model's scene. Alamo is z-up: so is the camera.
import * as THREE from 'three';
import { OrbitControls } from 'three/addons/controls/OrbitControls.js';

// ferry_particle_blend: opaque, add, alpha, modulate, darken.
const BLEND = { OPAQUE: 0, ADD: 1, ALPHA: 2, MODULATE: 3, DARKEN: 4 };
// The corners' coordinates over the whole sprite (v down), for the glow.
const WHOLE_SPRITE = new Float32Array([0, 1, 1, 1, 1, 0, 0, 0]);

const vertexShader = `
attribute vec4 color;
varying vec4 vColor;
varying vec2 vUv;
void main() {
  vColor = color;
  vUv = uv;
  gl_Position = projectionMatrix * modelViewMatrix * vec4(position, 1.0);
}`;

// Raw values, no colour-space conversion: as the software renderer, which
// blends the texels' stored values and writes them as they are.
const fragmentShader = `
uniform sampler2D map;
uniform int mode;
varying vec4 vColor;
varying vec2 vUv;
void main() {
  vec4 t = texture2D(map, vUv);
  vec3 c = t.rgb * vColor.rgb;
  float a = t.a * vColor.a;
  if (mode == 0) {
    if (t.a < 0.5) discard;
    gl_FragColor = vec4(c, 1.0);
  } else if (mode == 3) {
    gl_FragColor = vec4(vec3(1.0 - a) + c * a, 1.0);
  } else if (mode == 4) {
    gl_FragColor = vec4(0.0, 0.0, 0.0, a);
  } else {
    gl_FragColor = vec4(c, a);
  }
}`;

function blendMaterial(texture, blend, depthTest) {
  const m = new THREE.ShaderMaterial({
    uniforms: { map: { value: texture }, mode: { value: blend } },
    vertexShader, fragmentShader,
    depthTest, depthWrite: false, transparent: true, side: THREE.DoubleSide,
  });
  m.blending = THREE.CustomBlending;
  m.blendEquation = THREE.AddEquation;
  // The canvas keeps alpha 1 whatever is drawn.
  m.blendSrcAlpha = THREE.ZeroFactor;
  m.blendDstAlpha = THREE.OneFactor;
  switch (blend) {
  case BLEND.OPAQUE: m.blending = THREE.NoBlending; break;
  case BLEND.ADD: m.blendSrc = THREE.SrcAlphaFactor; m.blendDst = THREE.OneFactor; break;
  case BLEND.MODULATE: m.blendSrc = THREE.DstColorFactor; m.blendDst = THREE.ZeroFactor; break;
  case BLEND.DARKEN: m.blendSrc = THREE.ZeroFactor; m.blendDst = THREE.OneMinusSrcAlphaFactor; break;
  default: m.blendSrc = THREE.SrcAlphaFactor; m.blendDst = THREE.OneMinusSrcAlphaFactor; break;
  }
  return m;
}

// The checkerboard of `ferry render`: greys 0.32 and 0.48, cells of 1/16
// of the width (at least 4 pixels), counted from the top-left corner.
function checkerMaterial() {
  return new THREE.ShaderMaterial({
    uniforms: { size: { value: new THREE.Vector2(1, 1) } },
    vertexShader: 'void main() { gl_Position = vec4(position.xy, 0.0, 1.0); }',
    fragmentShader: `
      uniform vec2 size;
      void main() {
        float cell = max(floor(size.x / 16.0), 4.0);
        vec2 p = floor(vec2(gl_FragCoord.x, size.y - gl_FragCoord.y) / cell);
        float g = mod(p.x + p.y, 2.0) < 0.5 ? 0.32 : 0.48;
        gl_FragColor = vec4(vec3(g), 1.0);
      }`,
    depthTest: false, depthWrite: false, transparent: true,
  });
}

function dataTexture(img) {
  const t = new THREE.DataTexture(new Uint8Array(img.rgba), img.width, img.height, THREE.RGBAFormat);
  t.magFilter = THREE.LinearFilter;
  t.minFilter = THREE.LinearFilter;
  t.wrapS = t.wrapT = THREE.ClampToEdgeWrapping;
  t.generateMipmaps = false;
  t.flipY = false;   // rows top to bottom: v down from the image's top, as the sprites give it
  t.needsUpdate = true;
  return t;
}

// The sprites of a particle view as one three.js mesh, in Alamo's space
// (z up): a model's view puts it under the model's Z-up-to-Y-up rotation.
export class ParticleLayer {
  constructor(client, { depthTest = false } = {}) {
    this.client = client;
    this.depthTest = depthTest;
    this.geometry = new THREE.BufferGeometry();
    this.mesh = new THREE.Mesh(this.geometry, []);
    this.mesh.frustumCulled = false;
    this.mesh.renderOrder = 5;
    this.capacity = 0;
    this.materials = [];
    this.textures = [];
    this.glows = [];
    this.emitters = [];
    this.missing = [];
    this.messages = [];
    this.sim = null;
  }

  // The particle view of an asset (a particle system, or a model: the
  // systems on its proxies). Resolves to the view's description; no
  // system at all is `systems: []`.
  async open(assetId, { seed = 0, ground = 0, noGround = false } = {}) {
    this.assetId = assetId;
    this.seed = seed;
    this.ground = ground;
    this.noGround = noGround;
    const d = await this.client.call('simNew', { id: assetId, seed, ground, noGround });
    this.sim = d.sim;
    this.systems = d.systems;
    this.emitters = d.emitters;
    const tex = await this.client.call('simTextures', { sim: this.sim });
    this.messages = tex.messages;
    this.missing = [...new Set(tex.textures.filter(t => t.missing && t.name).map(t => `${t.name}: ${t.missing}`))];
    const glow = dataTexture(tex.glow);
    const made = new Map();
    this.textures = tex.textures.map(t => {
      if (!t.rgba) return glow;
      if (!made.has(t.rgba)) made.set(t.rgba, dataTexture(t));
      return made.get(t.rgba);
    });
    // A missing texture's glow covers the whole sprite, not an element.
    this.glows = tex.textures.map(t => !t.rgba);
    for (const m of this.materials) m && m.dispose();
    this.materials = [];
    return d;
  }

  async restart() {
    const old = this.sim;
    this.sim = null;
    if (old) await this.client.call('simFree', { sim: old });
    this.sim = (await this.client.call('simNew', { id: this.assetId, seed: this.seed, ground: this.ground,
                                                   noGround: this.noGround })).sim;
  }

  // Simulated to `time`, the sprites seen from camera [eye, target, up,
  // fov_y] in Alamo's space (null: framed on the live particles), built.
  async frame(time, camera, aspect, particles = false) {
    const f = await this.client.call('simFrame', { sim: this.sim, time, camera, aspect, particles });
    this.build(f);
    this.lastFrame = f;
    return f;
  }

  // The sprites as one geometry, drawn in their order: a run of sprites of
  // one emitter is one group drawn with that emitter's material (three.js
  // draws the groups of one object in order).
  build(frame) {
    const F = frame.floats, n = frame.sprites.length / F, s = frame.sprites;
    if (n > this.capacity || !this.geometry.attributes.position) {
      this.capacity = Math.max(n, this.capacity * 2, 256);
      this.geometry.setAttribute('position', new THREE.BufferAttribute(new Float32Array(this.capacity * 12), 3));
      this.geometry.setAttribute('uv', new THREE.BufferAttribute(new Float32Array(this.capacity * 8), 2));
      this.geometry.setAttribute('color', new THREE.BufferAttribute(new Float32Array(this.capacity * 16), 4));
      const index = new Uint32Array(this.capacity * 6);
      for (let i = 0; i < this.capacity; i++) index.set([4 * i, 4 * i + 1, 4 * i + 2, 4 * i, 4 * i + 2, 4 * i + 3], 6 * i);
      this.geometry.setIndex(new THREE.BufferAttribute(index, 1));
    }
    const pos = this.geometry.attributes.position.array, uv = this.geometry.attributes.uv.array,
          col = this.geometry.attributes.color.array;
    this.geometry.clearGroups();
    let runStart = 0, runEmitter = -1;
    for (let i = 0; i < n; i++) {
      const o = i * F;
      pos.set(s.subarray(o, o + 12), i * 12);
      const emitter = s[o + 24], blend = s[o + 25];
      uv.set(this.glows[emitter] ? WHOLE_SPRITE : s.subarray(o + 12, o + 20), i * 8);
      for (let k = 0; k < 4; k++) col.set(s.subarray(o + 20, o + 24), i * 16 + k * 4);
      if (!this.materials[emitter]) this.materials[emitter] = blendMaterial(this.textures[emitter] || this.textures[0], blend, this.depthTest);
      if (emitter !== runEmitter) {
        if (runEmitter >= 0) this.geometry.addGroup(runStart * 6, (i - runStart) * 6, runEmitter);
        runStart = i;
        runEmitter = emitter;
      }
    }
    if (runEmitter >= 0) this.geometry.addGroup(runStart * 6, (n - runStart) * 6, runEmitter);
    for (let e = 0; e < this.emitters.length; e++)
      if (!this.materials[e]) this.materials[e] = blendMaterial(this.textures[e], BLEND.ALPHA, this.depthTest);
    this.mesh.material = this.materials;
    for (const k of ['position', 'uv', 'color']) if (this.geometry.attributes[k]) this.geometry.attributes[k].needsUpdate = true;
    this.geometry.setDrawRange(0, n * 6);
    this.groups = this.geometry.groups.length;
  }


  dispose() {
    if (this.sim) this.client.call('simFree', { sim: this.sim });
    this.sim = null;
    for (const m of this.materials) m && m.dispose();
    for (const t of new Set(this.textures)) t.dispose();
    this.geometry.dispose();
  }
}

export class ParticleView {
  constructor(stage, client) {
    this.stage = stage;
    this.client = client;
    this.renderer = new THREE.WebGLRenderer({ antialias: false, preserveDrawingBuffer: true });
    this.renderer.setPixelRatio(window.devicePixelRatio || 1);
    stage.appendChild(this.renderer.domElement);
    this.camera = new THREE.PerspectiveCamera(40, 1, 0.01, 1e6);
    this.camera.up.set(0, 0, 1);
    this.controls = new OrbitControls(this.camera, this.renderer.domElement);
    this.controls.addEventListener('change', () => { this.userCamera = true; this.requestFrame(); });
    this.scene = new THREE.Scene();
    this.checker = checkerMaterial();
    const bg = new THREE.Mesh(new THREE.PlaneGeometry(2, 2), this.checker);
    bg.frustumCulled = false;
    bg.renderOrder = -1;
    this.scene.add(bg);
    this.layer = new ParticleLayer(client);
    this.scene.add(this.layer.mesh);
    this.time = 0;
    this.playing = false;
    this.busy = false;
    this.dirty = false;
    this.fixedSize = null;
    this.resizeObserver = new ResizeObserver(() => this.resize());
    this.resizeObserver.observe(stage);
    this.resize();
  }

  resize() {
    const w = this.fixedSize ? this.fixedSize[0] : this.stage.clientWidth || 1;
    const h = this.fixedSize ? this.fixedSize[1] : this.stage.clientHeight || 1;
    this.renderer.setSize(w, h);
    const px = this.renderer.getDrawingBufferSize(new THREE.Vector2());
    this.checker.uniforms.size.value.copy(px);
    this.camera.aspect = w / h;
    this.camera.updateProjectionMatrix();
    this.requestFrame();
  }

  setFixedSize(w, h) {
    this.fixedSize = w ? [w, h] : null;
    this.renderer.setPixelRatio(w ? 1 : (window.devicePixelRatio || 1));
    this.resize();
  }

  // A particle system, or a model's particle systems alone (as `ferry
  // render MODEL.alo` draws them). Resolves once drawn.
  async show(assetId, { seed = 0, time = 0, ground = 0, noGround = false } = {}) {
    const d = await this.layer.open(assetId, { seed, ground, noGround });
    this.missing = this.layer.missing;
    this.messages = this.layer.messages;
    this.systems = d.systems;
    this.seed = seed;
    this.time = time;
    this.userCamera = false;
    await this.update();
  }

  get sim() { return this.layer.sim; }
  get groups() { return this.layer.groups; }

  async restart() { await this.layer.restart(); }

  async setSeed(seed) { this.seed = seed; this.layer.seed = seed; await this.restart(); await this.update(); }

  // Frames the camera as `ferry render` does: on the live particles now.
  async reframe() { this.userCamera = false; await this.update(); }

  cameraArray() {
    const c = this.camera;
    const target = this.controls.target;
    return [c.position.x, c.position.y, c.position.z, target.x, target.y, target.z, c.up.x, c.up.y, c.up.z,
            THREE.MathUtils.degToRad(c.fov)];
  }

  // Simulates to this.time and draws.
  async update() {
    if (this.disposed) return undefined;
    if (this.busy) { this.dirty = true; return this.pending; }
    this.busy = true;
    this.pending = (async () => {
      try {
        do {
          this.dirty = false;
          if (this.disposed || !this.sim) break;
          const frame = await this.layer.frame(this.time, this.userCamera ? this.cameraArray() : null, this.camera.aspect);
          if (frame.framed) this.applyCamera(frame.framed);
          this.lastFrame = frame;
          this.renderer.render(this.scene, this.camera);
          if (this.onFrame) this.onFrame(frame);
        } while (this.dirty);
      } catch (e) {
        // A simulation freed while its frame was asked for: the view is gone.
        if (!this.disposed) throw e;
      } finally {
        this.busy = false;
      }
    })();
    return this.pending;
  }

  applyCamera(c) {
    this.camera.position.set(c[0], c[1], c[2]);
    this.camera.up.set(c[6], c[7], c[8]);
    this.camera.fov = THREE.MathUtils.radToDeg(c[9]);
    const dist = Math.hypot(c[0] - c[3], c[1] - c[4], c[2] - c[5]);
    this.camera.near = Math.max(dist / 1000, 1e-4);
    this.camera.far = dist * 100;
    this.camera.updateProjectionMatrix();
    this.controls.target.set(c[3], c[4], c[5]);
    this.camera.lookAt(this.controls.target);
    this.controls.update();
  }

  requestFrame() {
    if (this.frameRequested) return;
    this.frameRequested = true;
    requestAnimationFrame(async () => {
      this.frameRequested = false;
      if (this.playing) {
        const now = performance.now();
        this.time += Math.min((now - (this.lastTick || now)) / 1000, 0.25);
        this.lastTick = now;
      }
      if (this.disposed) return;
      try {
        if (this.sim) await this.update();
      } catch (e) {
        if (!this.disposed) throw e;
        return;
      }
      if (this.playing) this.requestFrame();
    });
  }

  setPlaying(on) {
    this.playing = on;
    this.lastTick = performance.now();
    this.requestFrame();
  }

  async setTime(t) { this.time = Math.max(0, t); await this.update(); }

  async particles() {
    return (await this.client.call('simFrame', { sim: this.sim, time: this.time, camera: this.cameraArray(),
                                                aspect: this.camera.aspect, particles: true })).particles;
  }

  dispose() {
    this.disposed = true;
    this.playing = false;
    this.layer.dispose();
    this.resizeObserver.disconnect();
    this.controls.dispose();
    this.renderer.dispose();
    this.renderer.domElement.remove();
  }
}
