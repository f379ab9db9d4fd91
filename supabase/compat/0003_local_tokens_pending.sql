-- Tokens de un solo uso del backend local, para todos sus fines (SPEC §6):
--   confirm     alta pendiente: lleva SUS credenciales (correo, hash de la contraseña y nombre),
--               que solo pasan a auth.users al confirmar; así un alta sin confirmar no crea cuenta
--               ni perfil (ni «primera cuenta» ni nombre) y volver a darse de alta no pisa nada;
--   recuperar   restablecer la contraseña (1 h);
--   invitacion  elegir la contraseña de una cuenta creada por un administrador (7 días).
-- Idempotente: se puede aplicar sobre 0001.
alter table auth.local_tokens alter column user_id drop not null;
alter table auth.local_tokens add column if not exists email text;
alter table auth.local_tokens add column if not exists password_hash text;
alter table auth.local_tokens add column if not exists nombre text;
alter table auth.local_tokens drop constraint if exists local_tokens_kind_check;
alter table auth.local_tokens add constraint local_tokens_kind_check
  check (kind in ('confirm', 'recuperar', 'invitacion'));
alter table auth.local_tokens drop constraint if exists local_tokens_destino_check;
alter table auth.local_tokens add constraint local_tokens_destino_check
  check (user_id is not null or (kind = 'confirm' and email is not null and password_hash is not null));
create index if not exists local_tokens_email_idx on auth.local_tokens (lower(email)) where email is not null;
