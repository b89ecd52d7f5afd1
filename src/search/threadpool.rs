//! The searcher's persistent helper threads: created with the searcher or when its thread
//! count changes, parked between searches (blocked on their job channel), handed one job
//! each per search, and joined when the pool is dropped.
//!
//! A job is a boxed `FnOnce() + Send + 'static`: it owns what it uses (the search's shared
//! state in an `Arc`, the helper's heuristics moved in and handed back as its result), so
//! no thread borrows the caller's stack and no `unsafe` is needed. A job that panics
//! leaves its thread alive for the next search; its [`Task`] hands the panic back to the
//! caller, as a scoped thread's join would.

use std::any::Any;
use std::panic::{self, AssertUnwindSafe};
use std::sync::mpsc::{self, Receiver, Sender};
use std::thread::JoinHandle;

/// Work for one pool thread.
type Job = Box<dyn FnOnce() + Send + 'static>;

/// What a job ended with: its value, or the payload of its panic.
type Outcome<T> = Result<T, Box<dyn Any + Send + 'static>>;

/// One parked thread and the channel that wakes it.
struct PoolThread {
    /// Dropping it ends the thread's loop.
    jobs: Option<Sender<Job>>,
    handle: Option<JoinHandle<()>>,
}

impl PoolThread {
    /// A new thread waiting for jobs, or `None` when the system refuses another thread.
    fn spawn(index: usize) -> Option<PoolThread> {
        let (jobs, inbox) = mpsc::channel::<Job>();
        let handle = std::thread::Builder::new()
            .name(format!("hnefi-search-{index}"))
            .spawn(move || park(inbox))
            .ok()?;
        Some(PoolThread {
            jobs: Some(jobs),
            handle: Some(handle),
        })
    }

    /// Closes the channel, so that the thread ends once its current job is done.
    fn close(&mut self) {
        self.jobs = None;
    }

    /// Waits for the thread to end (after [`PoolThread::close`]).
    fn join(&mut self) {
        if let Some(h) = self.handle.take() {
            // The loop catches every job's panic, so the thread cannot have panicked.
            let _ = h.join();
        }
    }
}

/// A pool thread's life: run each job as it comes, until the channel closes.
fn park(inbox: Receiver<Job>) {
    while let Ok(job) = inbox.recv() {
        // The job's own channel reports the panic to whoever waits for it.
        let _ = panic::catch_unwind(AssertUnwindSafe(job));
    }
}

/// The pool.
#[derive(Default)]
pub(crate) struct ThreadPool {
    threads: Vec<PoolThread>,
}

impl std::fmt::Debug for ThreadPool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "ThreadPool({} threads)", self.threads.len())
    }
}

/// A job handed to a pool thread, to be waited for with [`Task::join`].
#[must_use = "a task must be joined, or the search's state outlives the search"]
pub(crate) struct Task<T> {
    result: Receiver<Outcome<T>>,
}

impl<T> std::fmt::Debug for Task<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Task")
    }
}

impl<T> Task<T> {
    /// Waits for the job to end: its value, or the payload of its panic.
    pub(crate) fn join(self) -> Outcome<T> {
        match self.result.recv() {
            Ok(outcome) => outcome,
            // The job was dropped unrun (its thread had ended): as good as a panic.
            Err(_) => Err(Box::new("the pool thread ended before its job ran")),
        }
    }
}

impl ThreadPool {
    /// The number of threads.
    pub(crate) fn len(&self) -> usize {
        self.threads.len()
    }

    /// Starts or ends threads until there are `threads` (fewer if the system refuses
    /// some). Ended threads are joined; none is running a job, since every job is joined
    /// before the searcher can be changed.
    pub(crate) fn resize(&mut self, threads: usize) {
        if threads < self.threads.len() {
            let mut gone = self.threads.split_off(threads);
            shut(&mut gone);
        }
        while self.threads.len() < threads {
            match PoolThread::spawn(self.threads.len()) {
                Some(t) => self.threads.push(t),
                None => break,
            }
        }
    }

    /// Runs `job` on thread `index`. `None` when there is no such thread (or it has
    /// ended), and then `job` is not run.
    pub(crate) fn run<T, F>(&self, index: usize, job: F) -> Option<Task<T>>
    where
        T: Send + 'static,
        F: FnOnce() -> T + Send + 'static,
    {
        let jobs = self.threads.get(index)?.jobs.as_ref()?;
        let (report, result) = mpsc::channel();
        let wrapped: Job = Box::new(move || {
            let outcome = panic::catch_unwind(AssertUnwindSafe(job));
            // Nobody waits when the task was dropped: nothing to tell.
            let _ = report.send(outcome);
        });
        jobs.send(wrapped).ok()?;
        Some(Task { result })
    }
}

/// Closes every thread's channel first, so that they all end together, then joins them.
fn shut(threads: &mut [PoolThread]) {
    for t in threads.iter_mut() {
        t.close();
    }
    for t in threads.iter_mut() {
        t.join();
    }
}

impl Drop for ThreadPool {
    fn drop(&mut self) {
        shut(&mut self.threads);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};

    impl ThreadPool {
        fn new(threads: usize) -> ThreadPool {
            let mut pool = ThreadPool::default();
            pool.resize(threads);
            pool
        }
    }

    #[test]
    fn runs_jobs_on_its_threads_and_returns_their_values() {
        let pool = ThreadPool::new(3);
        assert_eq!(pool.len(), 3);
        let tasks: Vec<_> = (0..3)
            .map(|i| pool.run(i, move || i * 10).unwrap())
            .collect();
        let values: Vec<usize> = tasks.into_iter().map(|t| t.join().unwrap()).collect();
        assert_eq!(values, vec![0, 10, 20]);
        assert!(pool.run(3, || 0).is_none());
    }

    #[test]
    fn threads_persist_from_one_job_to_the_next() {
        let pool = ThreadPool::new(1);
        let first = pool.run(0, || std::thread::current().id()).unwrap();
        let first = first.join().unwrap();
        let second = pool.run(0, || std::thread::current().id()).unwrap();
        assert_eq!(second.join().unwrap(), first);
    }

    #[test]
    fn a_panicking_job_is_reported_and_its_thread_lives_on() {
        let pool = ThreadPool::new(1);
        let task = pool.run(0, || -> u32 { panic!("a job's panic") }).unwrap();
        assert!(task.join().is_err());
        assert_eq!(pool.run(0, || 7).unwrap().join().unwrap(), 7);
    }

    /// Holds a count of ended threads: one is kept in each pool thread's local storage
    /// and counts when the thread ends.
    struct Count(Arc<AtomicUsize>);

    impl Drop for Count {
        fn drop(&mut self) {
            self.0.fetch_add(1, Ordering::SeqCst);
        }
    }

    thread_local! {
        static HELD: std::cell::RefCell<Option<Count>> = const { std::cell::RefCell::new(None) };
    }

    #[test]
    fn resizing_and_dropping_join_the_threads_they_end() {
        let ended = Arc::new(AtomicUsize::new(0));
        let mut pool = ThreadPool::new(4);
        for i in 0..4 {
            let c = Count(Arc::clone(&ended));
            let held = pool.run(i, move || HELD.with(|h| *h.borrow_mut() = Some(c)));
            held.unwrap().join().unwrap();
        }
        assert_eq!(ended.load(Ordering::SeqCst), 0);
        pool.resize(1);
        assert_eq!(pool.len(), 1);
        assert_eq!(ended.load(Ordering::SeqCst), 3);
        pool.resize(2);
        assert_eq!(pool.len(), 2);
        assert_eq!(pool.run(1, || 5).unwrap().join().unwrap(), 5);
        drop(pool);
        assert_eq!(ended.load(Ordering::SeqCst), 4);
    }
}
