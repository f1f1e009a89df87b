// The chats open in this page, by session id: a `Chat` registers itself when it opens (and
// unregisters when it closes), and `SessionsClient.remove` tells those of the session it
// deleted, which end as on finding their session deleted (a 404). A module of its own: the
// chat imports the sessions client, which cannot import the chat.

const open = new Map<string, Set<() => void>>();

/** Calls `deleted` when session `sessionId` is deleted in this page; returns the unregister function. */
export function watchDeletion(sessionId: string, deleted: () => void): () => void {
  let watchers = open.get(sessionId);
  if (watchers === undefined) open.set(sessionId, (watchers = new Set()));
  const mine = (): void => deleted();
  watchers.add(mine);
  return () => {
    watchers.delete(mine);
    if (watchers.size === 0 && open.get(sessionId) === watchers) open.delete(sessionId);
  };
}

/** Tells the open chats of session `sessionId` that it was deleted (after the service said so). */
export function sessionDeleted(sessionId: string): void {
  for (const deleted of [...(open.get(sessionId) ?? [])]) deleted();
}
