import type { RequestHandler, Response } from 'express';
import type { Db } from 'mongodb';
import { jsonBody } from '../../http/json-body.js';
import { sendJson } from '../../http/respond.js';
import { bucketOf } from '../../http/request.js';
import { addUser, editUser, getUser, listUsers, removeUser } from '../../accounts/members.js';
import { forbidden, memberOf, requireAccountOf } from '../../accounts/request-account.js';
import { roleRefusal } from '../../accounts/roles.js';
import type { MemberDoc } from '../../accounts/store.js';
import { parseUserAdd, parseUserEdit } from '../../accounts/user-input.js';
import { accountOnly, readAccess, writeAccess, type BucketAccess } from '../../routes/access.js';

/** Spec rule 4: users routes need an account token with admin access (or the users permission). */
const requireUsersAccess: RequestHandler = (_req, res, next) => {
  requireAccountOf(res);
  const bucket = bucketOf(res);
  const member = memberOf(res);
  if (!member) throw forbidden(bucket.slug, 'the account is not a user of this Bucket');
  const why = roleRefusal(member, 'users', true);
  if (why !== null) throw forbidden(bucket.slug, why);
  next();
};

/** The grant of the caller (let in by requireUsersAccess): the ceiling of what it may grant. */
function callerOf(res: Response): MemberDoc {
  const member = memberOf(res);
  if (!member) throw new Error('a users route reached without requireUsersAccess');
  return member;
}

export type UserMethod = 'get' | 'post' | 'patch' | 'delete';
export interface UserRoute {
  method: UserMethod;
  /** Relative to the Bucket's path: '' or '/:user_id'. */
  sub: string;
  access: BucketAccess;
  handlers: RequestHandler[];
}

/** The users routes, mounted under each legacy version's Bucket path. */
export function userRoutes(db: Db, jsonBodyLimit: string): UserRoute[] {
  const body = jsonBody(jsonBodyLimit);
  const id = (p: Record<string, unknown>) => String(p.user_id);
  return [
    {
      method: 'get',
      access: accountOnly(readAccess('users'), requireUsersAccess),
      sub: '',
      handlers: [
        async (_req, res) => {
          const users = await listUsers(db, bucketOf(res));
          sendJson(res, 200, { users, total: users.length });
        },
      ],
    },
    {
      method: 'post',
      access: accountOnly(writeAccess('users'), requireUsersAccess),
      sub: '',
      handlers: [
        body,
        async (req, res) => {
          const user = await addUser(db, bucketOf(res), parseUserAdd(req.body), callerOf(res));
          const pending =
            user.status === 'pending'
              ? ' (pending: no e-mail is sent; its password is set with bucketctl set-password)'
              : '';
          sendJson(res, 200, {
            message: `User ${user.email} added to bucket '${bucketOf(res).slug}'${pending}.`,
            user,
          });
        },
      ],
    },
    {
      method: 'get',
      access: accountOnly(readAccess('users'), requireUsersAccess),
      sub: '/:user_id',
      handlers: [
        async (req, res) => {
          sendJson(res, 200, { user: await getUser(db, bucketOf(res), id(req.params)) });
        },
      ],
    },
    {
      method: 'patch',
      access: accountOnly(writeAccess('users'), requireUsersAccess),
      sub: '/:user_id',
      handlers: [
        body,
        async (req, res) => {
          const user = await editUser(db, bucketOf(res), id(req.params), parseUserEdit(req.body), callerOf(res));
          sendJson(res, 200, { message: `User ${user.email} edited successfully.`, user });
        },
      ],
    },
    {
      method: 'delete',
      access: accountOnly(writeAccess('users'), requireUsersAccess),
      sub: '/:user_id',
      handlers: [
        async (req, res) => {
          await removeUser(db, bucketOf(res), id(req.params), callerOf(res));
          sendJson(res, 200, {
            message: `User with id '${id(req.params)}' removed from bucket '${bucketOf(res).slug}'.`,
          });
        },
      ],
    },
  ];
}
