-- Cuentas bancarias: de dónde y adónde pagan las remesas (20261214000001_remesas).
--
--   datos_bancarios   el IBAN de cada persona: lo ven y lo cambian ella y los administradores.
--   cuentas_empresa   las cuentas de la empresa desde las que se paga: solo administradores.

-- ---------------------------------------------------------------------------------------------
-- IBAN (ISO 13616): el mismo criterio que app/lib/iban.ts (validateIban)
-- ---------------------------------------------------------------------------------------------

-- Sin espacios (tampoco los de no separación), en mayúsculas y sin el prefijo «IBAN».
create function interno.normalizar_iban(p_iban text) returns text language sql immutable set search_path = '' as $$
  select nullif(regexp_replace(upper(regexp_replace(coalesce(p_iban, ''), '[\s\u00a0]', '', 'g')), '^IBAN', ''), '')
$$;

-- País, longitud de su registro SWIFT, dígitos de control 02–98 y módulo 97 del número
-- reordenado (país y control al final, cada letra como 10–35) igual a 1.
create function interno.iban_valido(p_iban text) returns boolean language plpgsql immutable set search_path = '' as $$
declare
  v text := interno.normalizar_iban(p_iban);
  v_pais text;
  v_largo integer;
  v_resto integer := 0;
  v_c integer;
  v_letra text;
begin
  if v is null or v !~ '^[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}$' then
    return false;
  end if;
  v_pais := left(v, 2);
  -- Países que no usan IBAN (México usa la CLABE de 18 dígitos).
  if v_pais = any (array['MX', 'US', 'CA', 'AR', 'CL', 'CO', 'PE', 'UY', 'EC', 'VE', 'BO', 'PY', 'CN', 'JP',
                         'AU', 'IN']) then
    return false;
  end if;
  v_largo := ('{"AD": 24, "AT": 20, "BE": 16, "BG": 22, "BR": 29, "CH": 21, "CY": 28, "CZ": 24, "DE": 22,
    "DK": 18, "EE": 20, "ES": 24, "FI": 18, "FR": 27, "GB": 22, "GI": 23, "GR": 27, "HR": 21, "HU": 28,
    "IE": 22, "IS": 26, "IT": 27, "LI": 21, "LT": 20, "LU": 20, "LV": 21, "MC": 27, "MT": 31, "NL": 18,
    "NO": 15, "PL": 28, "PT": 25, "RO": 24, "SE": 24, "SI": 19, "SK": 24, "SM": 27, "TR": 26}'::jsonb ->> v_pais)::integer;
  if (v_largo is not null and length(v) <> v_largo) or (v_largo is null and length(v) not between 15 and 34) then
    return false;
  end if;
  if v_pais = 'ES' and v !~ '^ES[0-9]{22}$' then
    return false;
  end if;
  if substr(v, 3, 2)::integer not between 2 and 98 then
    return false;
  end if;
  foreach v_letra in array regexp_split_to_array(substr(v, 5) || left(v, 4), '') loop
    v_c := ascii(v_letra);
    if v_c >= 65 then
      v_resto := (v_resto * 100 + v_c - 55) % 97;
    else
      v_resto := (v_resto * 10 + v_c - 48) % 97;
    end if;
  end loop;
  return v_resto = 1;
end
$$;

-- ¿Es de un país de la zona SEPA el IBAN (el EEE y los de fuera: app/pagos/pain001.ts)? Uno válido
-- de otro país (TR, BR…) no va en una remesa: su banco devolvería la transferencia.
create function interno.iban_sepa(p_iban text) returns boolean language sql immutable set search_path = '' as $$
  select left(p_iban, 2) in (
    'AT', 'BE', 'BG', 'CY', 'CZ', 'DE', 'DK', 'EE', 'ES', 'FI', 'FR', 'GR', 'HR', 'HU', 'IE', 'IS', 'IT', 'LI', 'LT',
    'LU', 'LV', 'MT', 'NL', 'NO', 'PL', 'PT', 'RO', 'SE', 'SI', 'SK',
    'AD', 'AL', 'CH', 'GB', 'GG', 'GI', 'IM', 'JE', 'MC', 'MD', 'ME', 'MK', 'RS', 'SM', 'VA')
$$;
revoke all on function interno.iban_sepa(text) from public, anon, authenticated;
-- validar_iban('sepa') la evalúa con el usuario que escribe.
grant execute on function interno.iban_sepa(text) to authenticated, service_role;

-- Disparador de las tablas con una columna iban: la normaliza y la comprueba, con el mensaje junto
-- a su campo (detail = 'iban'). Obligatoria salvo con el argumento 'opcional';
-- con 'sepa', de la zona SEPA (una cuenta desde la que se pagan remesas).
create function interno.validar_iban() returns trigger language plpgsql set search_path = '' as $$
begin
  new.iban := interno.normalizar_iban(new.iban);
  if new.iban is null and 'opcional' = any (tg_argv) then
    return new;
  end if;
  if new.iban is null then
    raise exception using errcode = 'OFINV', detail = 'iban', message = 'Escriba el IBAN de la cuenta.';
  end if;
  if not interno.iban_valido(new.iban) then
    raise exception using errcode = 'OFINV', detail = 'iban',
      message = 'IBAN no válido: revise el código de país, los dígitos de control y el número de cuenta (por ejemplo, ES91 2100 0418 4502 0005 1332).';
  end if;
  if 'sepa' = any (tg_argv) and not interno.iban_sepa(new.iban) then
    raise exception using errcode = 'OFINV', detail = 'iban',
      message = 'IBAN de fuera de la zona SEPA (' || left(new.iban, 2) || '): las remesas solo pueden salir de una cuenta de la zona SEPA.';
  end if;
  return new;
end
$$;

-- ---------------------------------------------------------------------------------------------
-- datos_bancarios: la cuenta en la que cobra cada persona sus reembolsos, y su NIF (quien cobra
-- en efectivo no tiene por qué dar una cuenta, y el informe de IRPF le pide el NIF igual). Aparte de usuarios,
-- que ve cualquier usuario activo: esta solo la ven y la cambian la persona y los
-- administradores (ni su aprobador). Su historial, igual (historial_select,
-- 20261226000001_datos_por_necesidad).
-- ---------------------------------------------------------------------------------------------
create table public.datos_bancarios (
  id uuid primary key default gen_random_uuid(),
  usuario_id uuid not null
    constraint datos_bancarios_usuario_id_fkey references public.usuarios (id) on delete cascade,
  iban text
    constraint datos_bancarios_iban_check check (iban is null or interno.iban_valido(iban)),
  -- A nombre de quién está la cuenta, si no es el nombre de la persona (el banco lo muestra).
  titular text
    constraint datos_bancarios_titular_check
      check (titular is null or (char_length(titular) between 2 and 70 and iban is not null)),
  -- Su DNI o NIE: el informe de IRPF de dietas y kilometraje lo lleva (modelo 190).
  nif text
    constraint datos_bancarios_nif_check check (nif ~ '^[A-Z0-9]{9}$'),
  creado_en timestamptz not null default now(),
  actualizado_en timestamptz not null default now(),
  version integer not null default 1,
  constraint datos_bancarios_usuario_id_key unique (usuario_id),
  -- Una fila sin cuenta ni NIF no dice nada.
  constraint datos_bancarios_cuenta_o_nif_check check (iban is not null or nif is not null)
);

create trigger normalizar before insert or update on public.datos_bancarios
  for each row execute function interno.normalizar_columnas('titular', 'texto', 'nif', 'nif');
create trigger validar_iban before insert or update of iban on public.datos_bancarios
  for each row execute function interno.validar_iban('opcional');
select interno.tabla_con_historial('datos_bancarios');

-- Cambiar la cuenta de alguien es la manera de desviar sus reembolsos: cada alta, cambio o baja
-- del IBAN avisa a la persona, lo haga quien lo haga, y siempre también por correo (no se elige,
-- como el resto de avisos): quien no reconoce el cambio lo dice antes de la próxima remesa. El
-- aviso de un cambio propio llega ya leído en la aplicación; el correo, que sale aunque la sesión
-- sea de otro, es el que importa; también a quien está desactivado (sus últimos reembolsos siguen
-- pagándose). Lo que se escribe sin nadie en sesión (datos de demostración, tareas del servidor)
-- no avisa.
-- Quién hizo el cambio, como lo dice el aviso: su nombre, que cada cual edita, y su correo, que no.
create function interno.autor_del_cambio(p_usuario uuid) returns text
language sql stable security definer set search_path = '' as $$
  select coalesce(interno.nombre_completo(u.nombre, u.apellidos) || ' (' || u.email || ')', u.email)
    from public.usuarios u where u.id = p_usuario
$$;
revoke all on function interno.autor_del_cambio(uuid) from public, anon, authenticated;

-- Un aviso de cuenta a una persona: en la aplicación (leído ya, si p_leido) y siempre en la cola de
-- correo, sin mirar sus preferencias.
create function interno.avisar_de_cuenta(p_destinatario uuid, p_tipo text, p_datos jsonb, p_leido boolean)
returns void language plpgsql security definer set search_path = '' as $$
declare
  v_aviso uuid;
begin
  insert into public.avisos (destinatario_id, tipo, datos, leido_en)
  values (p_destinatario, p_tipo, p_datos, case when p_leido then now() end)
  returning id into v_aviso;
  insert into interno.correos (destinatario_id, aviso_id) values (p_destinatario, v_aviso);
end
$$;
revoke all on function interno.avisar_de_cuenta(uuid, text, jsonb, boolean) from public, anon, authenticated;

create function interno.datos_bancarios_avisar() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  v_antes text := case when tg_op <> 'INSERT' then old.iban end;
  v_ahora text := case when tg_op <> 'DELETE' then new.iban end;
  v_persona uuid := case when tg_op = 'DELETE' then old.usuario_id else new.usuario_id end;
  v_autor uuid := auth.uid();
begin
  -- Sin la persona (se borra con ella): nadie a quien avisar.
  if v_autor is null or v_antes is not distinct from v_ahora
     or not exists (select 1 from public.usuarios u where u.id = v_persona) then
    return null;
  end if;
  perform interno.avisar_de_cuenta(v_persona, 'cuenta', jsonb_strip_nulls(jsonb_build_object(
            'final', right(v_ahora, 4),
            'autor', case when v_autor <> v_persona then interno.autor_del_cambio(v_autor) end)),
          v_autor = v_persona);
  return null;
end
$$;
create trigger avisar after insert or update of iban or delete on public.datos_bancarios
  for each row execute function interno.datos_bancarios_avisar();

alter table public.datos_bancarios enable row level security;
create policy datos_bancarios_select on public.datos_bancarios for select to authenticated
  using ((select interno.rol_actual()) is not null
         and (usuario_id = (select auth.uid()) or (select interno.es_admin())));
select interno.politicas_de_la_persona('datos_bancarios', 'usuario_id');
revoke all on public.datos_bancarios from public, anon, authenticated;
grant select, delete on public.datos_bancarios to authenticated;
grant insert (usuario_id, iban, titular, nif), update (iban, titular, nif) on public.datos_bancarios to authenticated;
grant all on public.datos_bancarios to service_role;

-- ---------------------------------------------------------------------------------------------
-- cuentas_empresa: desde dónde paga la empresa. Solo los administradores, también para verlas.
-- sufijo: los tres caracteres que el banco añade al NIF de la empresa para formar el
-- «identificador del ordenante» (NIF + sufijo, normalmente 000).
-- ---------------------------------------------------------------------------------------------
create table public.cuentas_empresa (
  id uuid primary key default gen_random_uuid(),
  nombre text not null
    constraint cuentas_empresa_nombre_check check (char_length(nombre) between 2 and 80),
  iban text not null
    constraint cuentas_empresa_iban_check check (interno.iban_valido(iban)),
  bic text
    constraint cuentas_empresa_bic_check check (bic ~ '^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$'),
  sufijo text not null default '000'
    constraint cuentas_empresa_sufijo_check check (sufijo ~ '^[A-Z0-9]{3}$'),
  formato text not null default 'pain.001.001.03'
    constraint cuentas_empresa_formato_check check (formato in ('pain.001.001.03', 'pain.001.001.09')),
  activa boolean not null default true,
  creado_en timestamptz not null default now(),
  actualizado_en timestamptz not null default now(),
  version integer not null default 1,
  constraint cuentas_empresa_iban_key unique (iban)
);
-- Como una tabla estándar (interno.tabla_de_administracion), salvo que verla es también solo de
-- los administradores.
alter table public.cuentas_empresa enable row level security;
create policy cuentas_empresa_select on public.cuentas_empresa for select to authenticated
  using ((select interno.es_admin()));
select interno.politicas_de_administrador('cuentas_empresa');
revoke all on public.cuentas_empresa from public, anon, authenticated;
grant select on public.cuentas_empresa to authenticated;
grant all on public.cuentas_empresa to service_role;
select interno.tabla_con_historial('cuentas_empresa');
grant insert (nombre, iban, bic, sufijo, formato, activa), update (nombre, iban, bic, sufijo, formato, activa)
  on public.cuentas_empresa to authenticated;

create function interno.normalizar_cuenta_empresa() returns trigger language plpgsql set search_path = '' as $$
begin
  new.nombre := btrim(new.nombre);
  new.bic := nullif(upper(regexp_replace(coalesce(new.bic, ''), '[\s\u00a0]', '', 'g')), '');
  new.sufijo := upper(btrim(new.sufijo));
  if new.bic is not null and new.bic !~ '^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$' then
    raise exception using errcode = 'OFINV', detail = 'bic',
      message = 'BIC no válido: 8 u 11 caracteres, por ejemplo CAIXESBBXXX.';
  end if;
  if new.sufijo !~ '^[A-Z0-9]{3}$' then
    raise exception using errcode = 'OFINV', detail = 'sufijo',
      message = 'Sufijo no válido: tres letras o cifras, las que le dio el banco (normalmente 000).';
  end if;
  return new;
end
$$;
create trigger normalizar_cuenta_empresa before insert or update on public.cuentas_empresa
  for each row execute function interno.normalizar_cuenta_empresa();
create trigger validar_iban before insert or update of iban on public.cuentas_empresa
  for each row execute function interno.validar_iban('sepa');
