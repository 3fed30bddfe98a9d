//! The tree served over FUSE: sysfs's whole-value writes, its refusals and ENODEV for a
//! device that has gone, and the ioctls that reach the device files (the console's KDSETMODE
//! among them).

use super::buttons::EVIOCGKEY_96;
use super::{DeviceFile, Node, Tree};
use fuser::{
    Errno, FileAttr, FileHandle, FileType, Filesystem, FopenFlags, INodeNo, IoctlFlags, LockOwner,
    OpenFlags, ReplyAttr, ReplyData, ReplyDirectory, ReplyEntry, ReplyIoctl, ReplyOpen, ReplyWrite,
    Request, WriteFlags,
};
use std::ffi::OsStr;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, UNIX_EPOCH};

const KDSETMODE: u32 = 0x4B3A;

/// The FUSE side. A removed device's inodes stay numbered but resolve to nothing, so open
/// files on it answer ENODEV, as sysfs's do.
pub(super) struct EmulatedBrick {
    pub(super) tree: Arc<Mutex<Tree>>,
}

const NO_CACHE: Duration = Duration::ZERO;

pub fn lock(tree: &Mutex<Tree>) -> MutexGuard<'_, Tree> {
    tree.lock().unwrap_or_else(|e| e.into_inner())
}

/// Makes the program wait what its access would cost on a brick ([`Tree::access_cost`]), the
/// tree held meanwhile: one access at a time, as the brick's one CPU serves them.
fn pay_for(tree: &Tree) {
    wait(tree.cost_now(tree.access_cost));
}

fn wait(cost: Duration) {
    if !cost.is_zero() {
        std::thread::sleep(cost);
    }
}

impl EmulatedBrick {
    pub(super) fn path_of(tree: &Tree, ino: INodeNo) -> Option<String> {
        let index = u64::from(ino).checked_sub(1)? as usize;
        let path = tree.paths.get(index)?;
        tree.nodes.contains_key(path).then(|| path.clone())
    }

    pub(super) fn ino_of(tree: &Tree, path: &str) -> Option<INodeNo> {
        if !tree.nodes.contains_key(path) {
            return None;
        }
        tree.paths
            .iter()
            .position(|p| p == path)
            .map(|i| INodeNo(i as u64 + 1))
    }

    pub(super) fn attr(tree: &Tree, path: &str) -> Option<FileAttr> {
        let ino = Self::ino_of(tree, path)?;
        let (kind, perm, size) = match tree.nodes.get(path)? {
            Node::Folder => (FileType::Directory, 0o755, 0),
            // sysfs reports every attribute as 4096 bytes, whatever its value.
            Node::Attribute { writable: true, .. } => (FileType::RegularFile, 0o664, 4096),
            Node::Attribute {
                writable: false, ..
            } => (FileType::RegularFile, 0o444, 4096),
            Node::Device(_) => (FileType::RegularFile, 0o666, 0),
        };
        Some(FileAttr {
            ino,
            size,
            blocks: 0,
            atime: UNIX_EPOCH,
            mtime: UNIX_EPOCH,
            ctime: UNIX_EPOCH,
            crtime: UNIX_EPOCH,
            kind,
            perm,
            nlink: 1,
            uid: 0,
            gid: 0,
            rdev: 0,
            flags: 0,
            blksize: 4096,
        })
    }
}

fn child(parent: &str, name: &str) -> String {
    if parent.is_empty() {
        name.to_string()
    } else {
        format!("{parent}/{name}")
    }
}

impl Filesystem for EmulatedBrick {
    fn lookup(&self, _req: &Request, parent: INodeNo, name: &OsStr, reply: ReplyEntry) {
        let tree = lock(&self.tree);
        let found = Self::path_of(&tree, parent)
            .map(|p| child(&p, &name.to_string_lossy()))
            .and_then(|p| Self::attr(&tree, &p));
        match found {
            Some(attr) => reply.entry(&NO_CACHE, &attr, fuser::Generation(0)),
            None => reply.error(Errno::ENOENT),
        }
    }

    fn getattr(&self, _req: &Request, ino: INodeNo, _fh: Option<FileHandle>, reply: ReplyAttr) {
        let tree = lock(&self.tree);
        match Self::path_of(&tree, ino).and_then(|p| Self::attr(&tree, &p)) {
            Some(attr) => reply.attr(&NO_CACHE, &attr),
            None => reply.error(Errno::ENODEV),
        }
    }

    fn open(&self, _req: &Request, ino: INodeNo, _flags: OpenFlags, reply: ReplyOpen) {
        let tree = lock(&self.tree);
        match Self::path_of(&tree, ino) {
            // Direct I/O: every read reaches the device, as on sysfs.
            Some(_) => reply.opened(FileHandle(u64::from(ino)), FopenFlags::FOPEN_DIRECT_IO),
            None => reply.error(Errno::ENODEV),
        }
    }

    fn read(
        &self,
        _req: &Request,
        _ino: INodeNo,
        fh: FileHandle,
        offset: u64,
        size: u32,
        _flags: OpenFlags,
        _lock_owner: Option<LockOwner>,
        reply: ReplyData,
    ) {
        let mut tree = lock(&self.tree);
        // The handle keeps the inode it was opened on: if the device has gone, that path no
        // longer resolves.
        let Some(path) = Self::path_of(&tree, INodeNo(fh.0)) else {
            return reply.error(Errno::ENODEV);
        };
        tree.accesses.push(std::time::Instant::now());
        pay_for(&tree);
        match tree.read(&path) {
            Some(value) => {
                let text = format!("{value}\n");
                let start = (offset as usize).min(text.len());
                let end = (start + size as usize).min(text.len());
                reply.data(&text.as_bytes()[start..end]);
            }
            None => reply.error(Errno::EINVAL),
        }
    }

    fn write(
        &self,
        _req: &Request,
        _ino: INodeNo,
        fh: FileHandle,
        offset: u64,
        data: &[u8],
        _write_flags: WriteFlags,
        _flags: OpenFlags,
        _lock_owner: Option<LockOwner>,
        reply: ReplyWrite,
    ) {
        let mut tree = lock(&self.tree);
        let Some(path) = Self::path_of(&tree, INodeNo(fh.0)) else {
            return reply.error(Errno::ENODEV);
        };
        tree.accesses.push(std::time::Instant::now());
        pay_for(&tree);
        if offset != 0 {
            // sysfs takes a value in one write from the start; anything else is a bug.
            return reply.error(Errno::EINVAL);
        }
        let value = String::from_utf8_lossy(data).trim_end().to_string();
        match tree.write(&path, &value) {
            Ok(()) => reply.written(data.len() as u32),
            Err(errno) => reply.error(errno),
        }
    }

    fn ioctl(
        &self,
        _req: &Request,
        _ino: INodeNo,
        fh: FileHandle,
        _flags: IoctlFlags,
        cmd: u32,
        _in_data: &[u8],
        out_size: u32,
        reply: ReplyIoctl,
    ) {
        let mut tree = lock(&self.tree);
        let Some(path) = Self::path_of(&tree, INodeNo(fh.0)) else {
            return reply.error(Errno::ENODEV);
        };
        let kind = match tree.nodes.get(&path) {
            Some(Node::Device(kind)) => Some(*kind),
            _ => None,
        };
        if kind == Some(DeviceFile::Keys) {
            tree.input_calls.push(std::time::Instant::now());
            wait(tree.cost_now(tree.input_call_cost));
        } else {
            tree.accesses.push(std::time::Instant::now());
            pay_for(&tree);
        }
        let Some(kind) = kind else {
            return reply.error(Errno::ENOTTY);
        };
        tree.ioctls.push((path, cmd));
        match (kind, cmd) {
            (DeviceFile::Keys, EVIOCGKEY_96) => {
                let state = tree.key_state();
                let len = (out_size as usize).min(state.len());
                reply.ioctl(0, &state[..len]);
            }
            (DeviceFile::Console, KDSETMODE) => reply.ioctl(0, &[]),
            _ => reply.error(Errno::ENOTTY),
        }
    }

    fn readdir(
        &self,
        _req: &Request,
        ino: INodeNo,
        _fh: FileHandle,
        offset: u64,
        mut reply: ReplyDirectory,
    ) {
        let tree = lock(&self.tree);
        let Some(dir) = Self::path_of(&tree, ino) else {
            return reply.error(Errno::ENOENT);
        };
        let prefix = if dir.is_empty() {
            String::new()
        } else {
            format!("{dir}/")
        };
        let children: Vec<(String, INodeNo, FileType)> = tree
            .nodes
            .iter()
            .filter(|(p, _)| !p.is_empty() && p.starts_with(&prefix))
            .filter(|(p, _)| !p[prefix.len()..].contains('/'))
            .map(|(p, node)| {
                let kind = match node {
                    Node::Folder => FileType::Directory,
                    _ => FileType::RegularFile,
                };
                let ino = Self::ino_of(&tree, p).expect("listed paths exist");
                (p[prefix.len()..].to_string(), ino, kind)
            })
            .collect();
        for (i, (name, ino, kind)) in children.into_iter().enumerate().skip(offset as usize) {
            if reply.add(ino, i as u64 + 1, kind, &name) {
                break;
            }
        }
        reply.ok();
    }
}
