//! [`UpdateStream`]: a [`Session`] over an async byte stream (feature `stream`).
//!
//! Any `Stream<Item = Result<B, E>>` with `B: AsRef<[u8]>` goes in: reqwest's
//! `Response::bytes_stream()`, a hyper or axum body as `http_body_util::BodyStream` or
//! `Body::into_data_stream()`, a file read in chunks. The [`Update`]s of
//! [`Session::feed_updates`] come out, one per event. No runtime is needed (no tokio in
//! the library): the stream is polled by whatever polls it.

use std::collections::VecDeque;
use std::pin::Pin;
use std::task::{Context, Poll};

use futures_core::Stream;

use crate::session::{Session, Update};

pin_project_lite::pin_project! {
    /// A [`Stream`] of the [`Update`]s of a byte stream fed through a [`Session`]: each
    /// chunk goes to [`Session::feed_updates`], the end of the input to
    /// [`Session::end_updates`], and each update comes out as `Ok` in stream order.
    ///
    /// A transport error of the input (`E`) comes out as an `Err` item, after the updates
    /// of the bytes before it, and ends the stream without ending the session: what the
    /// broken connection left of an unfinished frame stays in it, and
    /// [`Session::restart_stream`] then a new request with [`Session::last_event_id`] as
    /// its `Last-Event-ID` resumes (see `session_mut`).
    ///
    /// The session stays reachable for messages and checkpoints: [`UpdateStream::session`],
    /// [`UpdateStream::session_mut`], [`UpdateStream::into_session`].
    ///
    /// ```
    /// use std::future::poll_fn;
    /// use std::pin::{Pin, pin};
    /// use std::task::{Context, Poll};
    ///
    /// use agentscope_message::{Session, SessionOptions, UpdateKind, UpdateStream};
    /// use futures_core::Stream;
    /// # /// A body already in memory (an HTTP client's byte stream in a real program).
    /// # struct Body(std::vec::IntoIter<Result<&'static [u8], std::io::Error>>);
    /// # impl Stream for Body {
    /// #     type Item = Result<&'static [u8], std::io::Error>;
    /// #     fn poll_next(mut self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<Option<Self::Item>> {
    /// #         Poll::Ready(self.0.next())
    /// #     }
    /// # }
    ///
    /// /// Stores each finished reply: one `Msg::to_json()` per ended reply.
    /// async fn relay(body: impl Stream<Item = Result<&'static [u8], std::io::Error>>) -> Vec<String> {
    ///     let mut updates = pin!(UpdateStream::new(Session::new(SessionOptions::default()), body));
    ///     let mut stored = Vec::new();
    ///     while let Some(update) = poll_fn(|cx| updates.as_mut().poll_next(cx)).await {
    ///         match update {
    ///             Ok(update) => {
    ///                 if let Some(msg) = update.ended() {
    ///                     stored.push(msg.to_json());
    ///                 }
    ///                 if let UpdateKind::Refused(error) = &update.kind {
    ///                     eprintln!("{error}"); // the events after it are applied all the same
    ///                 }
    ///             }
    ///             Err(transport) => eprintln!("resume from {:?}: {transport}", updates.session().last_event_id()),
    ///         }
    ///     }
    ///     stored
    /// }
    ///
    /// let body = Body(vec![
    ///     Ok(&b"data: {\"type\":\"REPLY_START\",\"session_id\":\"s\",\"reply_id\":\"r1\",\"name\":\"Friday\"}\n\nda"[..]),
    ///     Ok(b"ta: {\"type\":\"REPLY_END\",\"session_id\":\"s\",\"reply_id\":\"r1\"}"), // its blank line never came
    /// ].into_iter());
    /// let mut future = pin!(relay(body));
    /// let Poll::Ready(stored) = future.as_mut().poll(&mut Context::from_waker(std::task::Waker::noop())) else {
    ///     unreachable!("the body is in memory");
    /// };
    /// assert_eq!(stored.len(), 1); // the last frame is applied at the end of the input
    /// assert!(stored[0].contains(r#""id":"r1""#));
    /// ```
    #[derive(Debug)]
    pub struct UpdateStream<S> {
        #[pin]
        input: S,
        session: Session,
        queue: VecDeque<Update>,
        done: bool,
    }
}

impl<S> UpdateStream<S> {
    /// The updates of `input` fed through `session` (a new one, or one restored from a
    /// checkpoint, or one after [`Session::restart_stream`] for a resumed stream).
    pub fn new(session: Session, input: S) -> UpdateStream<S> {
        UpdateStream {
            input,
            session,
            queue: VecDeque::new(),
            done: false,
        }
    }

    /// The session: its messages, diagnostics, last SSE id, checkpoint.
    pub fn session(&self) -> &Session {
        &self.session
    }

    /// The session, to change (e.g. [`Session::take_diagnostics`],
    /// [`Session::restart_stream`] after a transport error).
    pub fn session_mut(&mut self) -> &mut Session {
        &mut self.session
    }

    /// The session, once the stream is no longer needed (updates not yet taken are
    /// dropped; what they tell is in the session).
    pub fn into_session(self) -> Session {
        self.session
    }
}

impl<S, B, E> Stream for UpdateStream<S>
where
    S: Stream<Item = Result<B, E>>,
    B: AsRef<[u8]>,
{
    type Item = Result<Update, E>;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let mut this = self.project();
        loop {
            if let Some(update) = this.queue.pop_front() {
                return Poll::Ready(Some(Ok(update)));
            }
            if *this.done {
                return Poll::Ready(None);
            }
            match this.input.as_mut().poll_next(cx) {
                Poll::Pending => return Poll::Pending,
                Poll::Ready(Some(Ok(chunk))) => this.queue.extend(this.session.feed_updates(chunk.as_ref())),
                Poll::Ready(Some(Err(error))) => {
                    *this.done = true;
                    return Poll::Ready(Some(Err(error)));
                }
                Poll::Ready(None) => {
                    *this.done = true;
                    this.queue.extend(this.session.end_updates());
                }
            }
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.queue.len(), if self.done { Some(self.queue.len()) } else { None })
    }
}
