// The page's side of the worker (worker.js): each call a promise.
export class FerryClient {
  constructor(url) {
    this.worker = new Worker(url, { type: 'module' });
    this.pending = new Map();
    this.next = 1;
    this.worker.onmessage = (e) => {
      const { id, result, error } = e.data;
      const p = this.pending.get(id);
      if (!p) return;
      this.pending.delete(id);
      if (error !== undefined) p.reject(new Error(error));
      else p.resolve(result);
    };
    this.worker.onerror = (e) => {
      const err = new Error(`the worker failed: ${e.message || 'could not load'}`);
      for (const p of this.pending.values()) p.reject(err);
      this.pending.clear();
      this.failed = err;
    };
  }

  call(op, args = {}, transfer = []) {
    if (this.failed) return Promise.reject(this.failed);
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ id, op, args }, transfer);
    });
  }
}
