//! Backpressure on stdio. rmcp reads requests as fast as they come and
//! writes each answer from a task of its own, so a client that sends and
//! does not read makes the server hold every answer in memory (hundreds of
//! megabytes after a few thousand `get_session` calls). This transport
//! wraps rmcp's own and reads a request only while fewer than
//! [`IN_FLIGHT`] are unanswered; an answer counts as given once it is
//! written. A client that stops reading therefore stops the server reading
//! too, and the pipe between them holds the rest.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

use rmcp::RoleServer;
use rmcp::model::{ClientNotification, JsonRpcMessage, RequestId};
use rmcp::service::{RxJsonRpcMessage, TxJsonRpcMessage};
use rmcp::transport::Transport;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// Requests read but not yet answered, at most.
pub const IN_FLIGHT: usize = 16;

/// The permit each unanswered request holds, by its id.
type Pending = Arc<Mutex<HashMap<RequestId, OwnedSemaphorePermit>>>;

pub struct Bounded<T> {
    inner: T,
    slots: Arc<Semaphore>,
    pending: Pending,
}

impl<T> Bounded<T> {
    pub fn new(inner: T, in_flight: usize) -> Bounded<T> {
        Bounded {
            inner,
            slots: Arc::new(Semaphore::new(in_flight)),
            pending: Pending::default(),
        }
    }
}

fn release(pending: &Pending, id: &RequestId) {
    pending
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .remove(id);
}

impl<T: Transport<RoleServer>> Transport<RoleServer> for Bounded<T> {
    type Error = T::Error;

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleServer>,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        let answered = match &item {
            JsonRpcMessage::Response(response) => Some(response.id.clone()),
            JsonRpcMessage::Error(error) => error.id.clone(),
            JsonRpcMessage::Request(_) | JsonRpcMessage::Notification(_) => None,
        };
        let pending = self.pending.clone();
        let sent = self.inner.send(item);
        async move {
            let result = sent.await;
            if let Some(id) = answered {
                release(&pending, &id);
            }
            result
        }
    }

    /// Waits for a free slot before reading. rmcp polls this inside a
    /// `select!`: dropped while waiting, it gives the slot back; dropped
    /// while reading, rmcp's reader keeps the partial line for the next call.
    async fn receive(&mut self) -> Option<RxJsonRpcMessage<RoleServer>> {
        let slot = self.slots.clone().acquire_owned().await.ok()?;
        let message = self.inner.receive().await?;
        match &message {
            JsonRpcMessage::Request(request) => {
                self.pending
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .insert(request.id.clone(), slot);
            }
            // rmcp drops the answer of a cancelled request: its slot is
            // given back here, or it would never be.
            JsonRpcMessage::Notification(note) => {
                if let ClientNotification::CancelledNotification(cancelled) = &note.notification
                    && let Some(id) = &cancelled.params.request_id
                {
                    release(&self.pending, id);
                }
            }
            JsonRpcMessage::Response(_) | JsonRpcMessage::Error(_) => {}
        }
        Some(message)
    }

    fn close(&mut self) -> impl Future<Output = Result<(), Self::Error>> + Send {
        self.inner.close()
    }
}
