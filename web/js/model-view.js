// Models (ALO, P3D, ALM) drawn with three.js from the .glb ferry writes in the
// worker. The look is the render check's (tests/render/index.html): the
// same background, lights and 3/4 view, so that a screenshot compares with
// the CLI's export drawn there.
import * as THREE from 'three';
import { GLTFLoader } from 'three/addons/loaders/GLTFLoader.js';
import { OrbitControls } from 'three/addons/controls/OrbitControls.js';

export const CLEAR = 0x202830;

export class ModelView {
  constructor(stage) {
    this.stage = stage;
    this.renderer = new THREE.WebGLRenderer({ antialias: false, preserveDrawingBuffer: true });
    this.renderer.setPixelRatio(window.devicePixelRatio || 1);
    this.renderer.setClearColor(CLEAR, 1);
    this.renderer.outputColorSpace = THREE.SRGBColorSpace;
    stage.appendChild(this.renderer.domElement);
    this.camera = new THREE.PerspectiveCamera(35, 1, 0.01, 1000);
    this.controls = new OrbitControls(this.camera, this.renderer.domElement);
    this.controls.addEventListener('change', () => this.requestFrame());
    this.lastTick = performance.now();
    this.mixer = null;
    this.playing = false;
    this.frameRequested = false;
    this.onTime = null;
    this.fixedSize = null;
    this.resizeObserver = new ResizeObserver(() => this.resize());
    this.resizeObserver.observe(stage);
    this.resize();
  }

  resize() {
    const w = this.fixedSize ? this.fixedSize[0] : this.stage.clientWidth || 1;
    const h = this.fixedSize ? this.fixedSize[1] : this.stage.clientHeight || 1;
    this.renderer.setSize(w, h);
    this.camera.aspect = w / h;
    this.camera.updateProjectionMatrix();
    this.requestFrame();
  }

  setFixedSize(w, h) {
    this.fixedSize = w ? [w, h] : null;
    this.renderer.setPixelRatio(w ? 1 : (window.devicePixelRatio || 1));
    this.resize();
  }

  // Replaces what is shown with a .glb; resolves once it is drawn.
  async show(glb) {
    this.clear();
    const gltf = await new GLTFLoader().parseAsync(glb, '');
    this.gltf = gltf;
    this.root = gltf.scene;
    this.scene = new THREE.Scene();
    this.scene.add(this.root);
    this.mixer = new THREE.AnimationMixer(this.root);
    this.actions = gltf.animations.map(clip => this.mixer.clipAction(clip));
    this.root.updateMatrixWorld(true);
    if (this.particleRoot) this.scene.add(this.particleRoot);
    this.frame();
    this.requestFrame();
    await new Promise(r => requestAnimationFrame(() => r()));
    return gltf;
  }

  // Lights, floor grid and camera as the render check sets them.
  frame() {
    const b = this.box();
    const size = b.isEmpty() ? new THREE.Vector3(1, 1, 1) : b.getSize(new THREE.Vector3());
    const center = b.isEmpty() ? new THREE.Vector3() : b.getCenter(new THREE.Vector3());
    const radius = Math.max(size.length() / 2, 1e-6);
    this.radius = radius;
    const fov = 35, dist = radius / Math.sin(THREE.MathUtils.degToRad(fov / 2)) * 1.05;
    if (this.extras) for (const o of this.extras) this.scene.remove(o);
    const hemi = new THREE.HemisphereLight(0xffffff, 0x444444, 2.0);
    const sun = new THREE.DirectionalLight(0xffffff, 2.0);
    sun.position.set(1, 2, 1.5).multiplyScalar(radius * 4).add(center);
    sun.target.position.copy(center);
    const grid = new THREE.GridHelper(radius * 4, 20, 0x6080a0, 0x405060);
    grid.position.set(center.x, b.isEmpty() ? 0 : b.min.y, center.z);
    const axes = new THREE.AxesHelper(radius * 0.5);
    axes.position.copy(grid.position);
    this.extras = [hemi, sun, sun.target, grid, axes];
    this.scene.add(...this.extras);
    this.camera.fov = fov;
    this.camera.near = dist / 1000;
    this.camera.far = dist * 10;
    this.camera.position.copy(center).addScaledVector(new THREE.Vector3(1, 0.7, 1.6).normalize(), dist);
    this.camera.updateProjectionMatrix();
    this.controls.target.copy(center);
    this.controls.update();
  }

  box() {
    const b = new THREE.Box3();
    if (!this.root) return b;
    this.root.updateMatrixWorld(true);
    this.root.traverseVisible(o => { if (o.isMesh) b.expandByObject(o, true); });
    return b;
  }

  requestFrame() {
    if (this.frameRequested) return;
    this.frameRequested = true;
    requestAnimationFrame(() => {
      this.frameRequested = false;
      this.render();
    });
  }

  render() {
    if (!this.scene) return;
    const now = performance.now();
    const dt = Math.min((now - this.lastTick) / 1000, 0.25);
    this.lastTick = now;
    if (this.mixer && this.playing) {
      this.mixer.update(dt);
      if (this.onTime) this.onTime(this.currentAction ? this.currentAction.time : 0);
    }
    if (this.skeletonHelper) this.skeletonHelper.updateMatrixWorld(true);
    this.renderer.render(this.scene, this.camera);
    if (this.particles && this.particles.visible) {
      if (this.particlesPlaying) this.particleTime += dt;
      this.drawParticles();
    }
    if (this.playing || (this.particles && this.particlesPlaying && this.particles.visible)) this.requestFrame();
  }

  // ---- particle systems on the model's proxies ----

  // A ParticleLayer of the model (the library placed its systems at the
  // proxies' bones, in Alamo's z-up space): drawn under the same Z-up to
  // Y-up rotation as the model's root node (docs/formats/gltf-export.md),
  // seen from this camera, hidden by the model where it is in front.
  setParticles(layer, time = 0, playing = true) {
    if (this.particleRoot && this.scene) this.scene.remove(this.particleRoot);
    this.particles = layer;
    this.particleRoot = null;
    if (!layer) return;
    layer.visible = true;
    this.particleRoot = new THREE.Group();
    this.particleRoot.name = 'particles (Z-up to Y-up)';
    this.particleRoot.rotation.x = -Math.PI / 2;
    this.particleRoot.add(layer.mesh);
    if (this.scene) this.scene.add(this.particleRoot);
    this.particleTime = time;
    this.particlesPlaying = playing;
    this.requestFrame();
  }

  // This camera in Alamo's space: three's (x, y, z) is Alamo's (x, -z, y).
  alamoCamera() {
    const c = this.camera, t = this.controls.target, u = c.up;
    const a = (v) => [v.x, -v.z, v.y];
    return [...a(c.position), ...a(t), ...a(u), THREE.MathUtils.degToRad(c.fov)];
  }

  // Simulates to particleTime and rebuilds the sprites for this camera,
  // then draws again (one frame behind at most while the worker answers).
  async drawParticles() {
    if (this.particleBusy) { this.particleDirty = true; return this.particlePending; }
    this.particleBusy = true;
    this.particlePending = (async () => {
      try {
        do {
          this.particleDirty = false;
          const layer = this.particles;
          if (!layer || !layer.sim || !this.scene) break;
          const f = await layer.frame(this.particleTime, this.alamoCamera(), this.camera.aspect);
          if (layer !== this.particles || !this.scene) break;
          this.particleFrame = f;
          this.renderer.render(this.scene, this.camera);
          if (this.onParticleFrame) this.onParticleFrame(f);
        } while (this.particleDirty);
      } catch (e) {
        if (this.particles) throw e;
      } finally {
        this.particleBusy = false;
      }
    })();
    return this.particlePending;
  }

  setParticlesVisible(on) {
    if (!this.particles) return;
    this.particles.visible = on;
    this.particles.mesh.visible = on;
    this.requestFrame();
  }

  setParticlesPlaying(on) {
    this.particlesPlaying = on;
    this.lastTick = performance.now();
    this.requestFrame();
  }

  async setParticleTime(t) {
    this.particleTime = Math.max(0, t);
    this.particlesPlaying = false;
    await this.drawParticles();
    return this.particleFrame;
  }

  // ---- animations ----

  // Plays one clip (index; -1: none, the rest pose) from its start, paused.
  selectAnimation(index) {
    if (!this.mixer) return;
    this.mixer.stopAllAction();
    this.currentAction = index >= 0 ? this.actions[index] : null;
    if (this.currentAction) {
      this.currentAction.reset();
      this.currentAction.play();
      this.currentAction.paused = !this.playing;
    }
    this.mixer.update(0);
    this.requestFrame();
  }

  setPlaying(on) {
    this.playing = on;
    if (this.currentAction) this.currentAction.paused = !on;
    this.lastTick = performance.now();
    this.requestFrame();
  }

  seek(time) {
    if (!this.currentAction) return;
    this.currentAction.time = time;
    this.mixer.update(0);
    this.requestFrame();
  }

  // P3D animation classes: every clip active at once, each held at its own
  // time (a slider each), as the engine sets each class from its source.
  enableAllClips() {
    this.mixer.stopAllAction();
    this.currentAction = null;
    for (const a of this.actions) { a.reset(); a.play(); a.paused = true; a.time = 0; }
    this.mixer.update(0);
    this.requestFrame();
  }
  setClipTime(index, time) {
    const a = this.actions[index];
    a.time = time;
    this.mixer.update(0);
    this.requestFrame();
  }

  // ---- what is shown ----

  setBones(on) {
    if (this.skeletonHelper) { this.scene.remove(this.skeletonHelper); this.skeletonHelper = null; }
    if (on && this.root) {
      this.skeletonHelper = new THREE.SkeletonHelper(this.root);
      // SkeletonHelper draws three.js bones (skin joints); nodes the file
      // marks as bones without a skin are drawn as small axes.
      this.scene.add(this.skeletonHelper);
    }
    this.toggleMarkers('bone', on, 0.08);
    this.requestFrame();
  }

  setProxies(on) {
    this.toggleMarkers('proxy', on, 0.15);
    this.requestFrame();
  }

  // Small axes on every node whose extras say `kind` (extras.alamo, or an
  // ODOL proxy node).
  toggleMarkers(kind, on, scale) {
    this.markers = this.markers || {};
    for (const m of this.markers[kind] || []) m.parent && m.parent.remove(m);
    this.markers[kind] = [];
    if (!on || !this.root) return;
    this.root.traverse(o => {
      const u = o.userData || {};
      const is = kind === 'proxy' ? (u.alamo === 'proxy' || u.proxy !== undefined) : (u.alamo === 'bone');
      if (!is) return;
      const axes = new THREE.AxesHelper(this.radius * scale);
      axes.userData.marker = true;
      axes.material.depthTest = false;
      axes.renderOrder = 10;
      o.add(axes);
      this.markers[kind].push(axes);
    });
  }

  // The box of the visible meshes as posed now (min, max).
  bounds() {
    const b = this.box();
    return b.isEmpty() ? null : { min: b.min.toArray(), max: b.max.toArray() };
  }

  // The scene's counts, as `ferry info` counts them: meshes (nodes with a
  // mesh, visible ones), bones (nodes the file marks as bones, else skin
  // joints), triangles of the visible meshes, animations.
  stats() {
    const s = { meshes: 0, skinnedMeshes: 0, bones: 0, joints: 0, triangles: 0, animations: 0, materials: 0,
                materialsWithMaps: 0, nonFinitePositions: 0 };
    if (!this.root) return s;
    const mats = new Set(), meshNodes = new Set();
    this.root.traverse(o => {
      if (o.isBone) s.joints++;
      if ((o.userData || {}).alamo === 'bone') s.bones++;
    });
    this.root.traverseVisible(o => {
      if (!o.isMesh || (o.userData || {}).marker) return;
      // A mesh of several primitives is a group of meshes in three.js: count its node once.
      let node = o;
      const assoc = this.gltf.parser.associations;
      while (node.parent && !(assoc.get(node) && assoc.get(node).nodes !== undefined)) node = node.parent;
      meshNodes.add(node);
      if (o.isSkinnedMesh) s.skinnedMeshes++;
      const g = o.geometry;
      const count = g.index ? g.index.count : g.attributes.position.count;
      if (o.drawMode === undefined || o.drawMode === 0) s.triangles += Math.floor(count / 3);
      const pos = g.attributes.position.array;
      for (let i = 0; i < pos.length; i++) if (!Number.isFinite(pos[i])) s.nonFinitePositions++;
      for (const m of Array.isArray(o.material) ? o.material : [o.material]) { mats.add(m); }
    });
    if (!s.bones) s.bones = s.joints;
    s.meshes = meshNodes.size;
    s.materials = mats.size;
    s.materialsWithMaps = [...mats].filter(m => m.map).length;
    s.animations = this.gltf ? this.gltf.animations.length : 0;
    return s;
  }

  clear() {
    if (this.root) {
      this.root.traverse(o => {
        if (o.geometry) o.geometry.dispose();
        for (const m of o.material ? (Array.isArray(o.material) ? o.material : [o.material]) : []) {
          for (const k of Object.keys(m)) if (m[k] && m[k].isTexture) m[k].dispose();
          m.dispose();
        }
      });
    }
    this.scene = null;
    this.root = null;
    this.gltf = null;
    this.mixer = null;
    this.actions = [];
    this.currentAction = null;
    this.skeletonHelper = null;
    this.markers = {};
    this.playing = false;
  }

  dispose() {
    if (this.particles) this.particles.dispose();
    this.particles = null;
    this.clear();
    this.resizeObserver.disconnect();
    this.controls.dispose();
    this.renderer.dispose();
    this.renderer.domElement.remove();
  }
}
