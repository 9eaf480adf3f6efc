/**
 * IndexedDB as promises, for the seat's key store and game store (spec/12-peers.md 12.2,
 * 12.4). The one rule that matters: a write resolves only once its transaction has
 * committed with durability "strict" (the browser has flushed it to disk, as SQLite's
 * synchronous=FULL does), so "persisted" means what it says before a frame is sent.
 * @module store/idb
 */

/** The error a store throws for IndexedDB failures and refused records (`store/*`). */
export class StoreError extends Error {
  /** @param {string} detail @param {string} [code] */
  constructor(detail, code = "store/io") {
    super(detail);
    this.name = new.target.name;
    this.code = code;
  }
}

/**
 * The result of one IDBRequest.
 * @param {IDBRequest} req
 * @returns {Promise<any>}
 */
export function request(req) {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(wrap(req.error));
  });
}

function wrap(error, what = "IndexedDB") {
  if (error instanceof StoreError) return error;
  return new StoreError(`${what}: ${error?.name ?? "error"}: ${error?.message ?? ""}`);
}

/**
 * Open (creating or upgrading) a database. `upgrade(db, oldVersion, tx)` makes its
 * object stores; a database another tab holds open at an older version blocks us, which
 * is an error rather than a silent wait.
 * @param {string} name
 * @param {number} version
 * @param {(db: IDBDatabase, oldVersion: number, tx: IDBTransaction) => void} upgrade
 * @returns {Promise<IDBDatabase>}
 */
export function openDatabase(name, version, upgrade) {
  return new Promise((resolve, reject) => {
    const req = indexedDB.open(name, version);
    req.onupgradeneeded = (event) => upgrade(req.result, event.oldVersion, req.transaction);
    req.onsuccess = () => {
      const db = req.result;
      db.onversionchange = () => db.close();  // let a newer page upgrade, never block it
      resolve(db);
    };
    req.onerror = () => reject(wrap(req.error, `cannot open ${name}`));
    req.onblocked = () => reject(new StoreError(`${name} is held open at an older version `
      + "by another tab; close it and retry", "store/blocked"));
  });
}

/** The names of the databases of this origin (Chromium and Firefox have `databases`). */
export async function databaseNames() {
  return (await indexedDB.databases()).map((d) => d.name);
}

/** Delete a database; resolves once it is gone. */
export function deleteDatabase(name) {
  return new Promise((resolve, reject) => {
    const req = indexedDB.deleteDatabase(name);
    req.onsuccess = () => resolve();
    req.onerror = () => reject(wrap(req.error, `cannot delete ${name}`));
    req.onblocked = () => reject(new StoreError(`${name} is open in another tab`,
      "store/blocked"));
  });
}

/**
 * Run `body(tx)` in one transaction and resolve with its value once the transaction has
 * committed (readwrite ones with durability "strict"). `body` may await the requests it
 * makes (`request`), but nothing else: an await on anything but this transaction's own
 * requests lets IndexedDB commit early. If `body` throws, the transaction is aborted and
 * nothing of it is written.
 * @template T
 * @param {IDBDatabase} db
 * @param {string|string[]} stores
 * @param {"readonly"|"readwrite"} mode
 * @param {(tx: IDBTransaction) => Promise<T>|T} body
 * @returns {Promise<T>}
 */
export async function transact(db, stores, mode, body) {
  const tx = mode === "readwrite"
    ? db.transaction(stores, mode, { durability: "strict" })
    : db.transaction(stores, mode);
  const done = new Promise((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onabort = () => reject(wrap(tx.error ?? new DOMException("aborted", "AbortError")));
  });
  let value;
  try {
    value = await body(tx);
  } catch (exc) {
    done.catch(() => {});
    try {
      tx.abort();
    } catch {
      // already finished: the error below says what went wrong
    }
    throw exc;
  }
  if (typeof tx.commit === "function") {
    try {
      tx.commit();
    } catch {
      // committed already (nothing was pending)
    }
  }
  await done;
  return value;
}
