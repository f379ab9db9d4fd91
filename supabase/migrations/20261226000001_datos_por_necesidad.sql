-- Oficina: cada dato, a quien lo necesita, también en la base de datos (no solo en las pantallas).
--
--   * El IBAN y las notas de un proveedor: solo los administradores (quienes pagan). Los demás
--     siguen viendo y eligiendo proveedores (nombre, NIF…) en todas partes.
--   * El presupuesto mensual de un departamento: los administradores y quienes están a su cargo
--     (su responsable, también de los que cuelgan de él, y los aprobadores del departamento).
--
-- Todo usuario es el rol `authenticated`: los privilegios por columna no distinguen a un
-- administrador de un empleado, y quitar una columna rompe el `select *` y el `returning *` de
-- los dos adaptadores. Por eso cada dato reservado vive en una tabla aparte, 1:1 con la suya
-- (misma clave `id`), cuya RLS decide quién lo lee:
--   proveedores_pago            (iban, notas)          solo administradores;
--   departamentos_presupuesto   (presupuesto_mensual)  administradores y quienes están a su cargo.
--
-- Las columnas de siempre (proveedores.iban y .notas, departamentos.presupuesto_mensual) quedan
-- como entrada: los formularios, PostgREST y las cargas las escriben igual que antes, y los
-- disparadores `reservar_*` pasan el valor a la tabla aparte (como quien escribe: su RLS decide,
-- así que solo un administrador lo cambia) y dejan la columna vacía. Leerlas da siempre null (una
-- restricción lo asegura); el dato se lee en las vistas (proveedores_vista, departamentos_vista),
-- que lo toman de la tabla aparte: quien no puede verlo recibe null. Solo se pasan las columnas
-- que la orden escribe (`before update of <columna>`): guardar el nombre no borra el IBAN.
--
-- El historial de cada tabla aparte se guarda con su nombre y lo ve quien ve el dato; las
-- entradas anteriores con esos datos se trasladan a ella. Las funciones que leían estas columnas
-- (avisos de presupuesto, panel, remesas) leen ahora las tablas aparte, como propietarias o con
-- la RLS de quien pregunta, como antes.

-- ---------------------------------------------------------------------------------------------
-- Quién ve el presupuesto de qué departamentos (además de los administradores)
-- ---------------------------------------------------------------------------------------------
-- Los de los que el usuario actual (activo) es responsable y los que cuelgan de ellos, y, si es
-- aprobador, el suyo: los departamentos cuyos gastos aprueba por estar a su cargo.
create function interno.presupuestos_a_cargo() returns uuid[] language sql stable security definer set search_path = '' as $$
  with recursive yo as (
    select u.id, u.rol, u.departamento_id from public.usuarios u
     where u.id = (select auth.uid()) and u.activo
  ), a_cargo (id) as (
    select d.id from public.departamentos d join yo on d.responsable_id = yo.id
    union
    select h.id from public.departamentos h join a_cargo c on h.departamento_padre_id = c.id
  )
  select coalesce(array_agg(x.id), '{}')
    from (select a.id from a_cargo a
          union
          select yo.departamento_id from yo where yo.rol = 'aprobador' and yo.departamento_id is not null) x
$$;
revoke all on function interno.presupuestos_a_cargo() from public, anon, authenticated;
grant execute on function interno.presupuestos_a_cargo() to authenticated, service_role;

-- ---------------------------------------------------------------------------------------------
-- Las columnas de entrada: el disparador que pasa el valor a la tabla aparte
-- ---------------------------------------------------------------------------------------------
-- tg_argv[0]: la tabla aparte (public, con `id` = el de la fila); tg_argv[1]: la columna, con el
-- mismo nombre en las dos. En un alta, solo si trae valor; en una modificación, siempre que la
-- orden escriba la columna (vaciarla también es un cambio). SECURITY INVOKER: la RLS de la tabla
-- aparte es la de quien escribe (42501 si no puede, y la orden entera no se aplica).
create function interno.reservar_columna() returns trigger language plpgsql set search_path = '' as $$
declare
  v_tabla text := tg_argv[0];
  v_columna text := tg_argv[1];
  v_valor jsonb := to_jsonb(new) -> v_columna;
begin
  if tg_op = 'UPDATE' or v_valor <> 'null'::jsonb then
    execute format(
      'insert into public.%1$I as t (id, %2$I)
       select r.id, r.%2$I from jsonb_populate_record(null::public.%1$I, $1) r
       on conflict (id) do update set %2$I = excluded.%2$I', v_tabla, v_columna)
      using jsonb_build_object('id', new.id, v_columna, v_valor);
  end if;
  new := jsonb_populate_record(new, jsonb_build_object(v_columna, null));
  return new;
end
$$;
revoke all on function interno.reservar_columna() from public, anon, authenticated;

-- ---------------------------------------------------------------------------------------------
-- proveedores_pago: el IBAN y las notas de cada proveedor, solo para los administradores
-- ---------------------------------------------------------------------------------------------
-- Las restricciones llevan el nombre de la columna de entrada (proveedores_<columna>_check): el
-- error se muestra junto a su campo del formulario de proveedores.

create table public.proveedores_pago (
  id uuid primary key
    constraint proveedores_pago_id_fkey references public.proveedores (id) on delete cascade
    deferrable initially deferred, -- la fila aparte se escribe antes que el alta del proveedor
  iban text
    constraint proveedores_iban_check check (iban ~ '^[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}$'),
  notas text
    constraint proveedores_notas_check check (char_length(notas) <= 2000)
);

insert into public.proveedores_pago (id, iban, notas)
select p.id, p.iban, p.notas from public.proveedores p where p.iban is not null or p.notas is not null;

-- Vaciar las columnas de entrada no es una edición: ni versión nueva ni historial.
alter table public.proveedores disable trigger tocar_version, disable trigger registrar_historial;
update public.proveedores set iban = null, notas = null where iban is not null or notas is not null;
alter table public.proveedores enable trigger tocar_version, enable trigger registrar_historial;

alter table public.proveedores add constraint proveedores_reservadas_check check (iban is null and notas is null);
comment on column public.proveedores.iban is
  'Solo de entrada: el valor se guarda en proveedores_pago (disparador reservar_iban). Léase en proveedores_vista.';
comment on column public.proveedores.notas is
  'Solo de entrada: el valor se guarda en proveedores_pago (disparador reservar_notas). Léase en proveedores_vista.';

-- Después de normalizar (los disparadores BEFORE van por orden de nombre).
create trigger reservar_iban before insert or update of iban on public.proveedores
  for each row execute function interno.reservar_columna('proveedores_pago', 'iban');
create trigger reservar_notas before insert or update of notas on public.proveedores
  for each row execute function interno.reservar_columna('proveedores_pago', 'notas');

select interno.tabla_con_historial('proveedores_pago', false); -- 1:1 con su tabla, sin versión propia

-- Pedir que se pague a otra cuenta es el fraude clásico del proveedor suplantado: cuando cambia
-- (o se añade, o se quita) la cuenta de un proveedor que ya existía, los demás administradores
-- activos reciben un aviso, siempre también por correo, para confirmarlo antes de pagarle. El alta
-- de un proveedor con su cuenta no avisa (su fila se escribe antes que la del proveedor), ni lo
-- escrito sin nadie en sesión.
create function interno.proveedores_pago_avisar() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  v_id uuid := case when tg_op = 'DELETE' then old.id else new.id end;
  v_antes text := case when tg_op <> 'INSERT' then old.iban end;
  v_ahora text := case when tg_op <> 'DELETE' then new.iban end;
  v_autor uuid := auth.uid();
  v_datos jsonb;
  v_admin uuid;
begin
  if v_autor is null or v_antes is not distinct from v_ahora then
    return null;
  end if;
  select jsonb_strip_nulls(jsonb_build_object(
           'proveedor_id', p.id,
           'proveedor', interno.nombre_proveedor(p.razon_social, p.nombre_comercial),
           'final', right(v_ahora, 4),
           'autor', interno.autor_del_cambio(v_autor)))
    into v_datos
    from public.proveedores p where p.id = v_id;
  if v_datos is null then
    return null;
  end if;
  for v_admin in
    select u.id from public.usuarios u where u.rol = 'administrador' and u.activo and u.id <> v_autor
  loop
    perform interno.avisar_de_cuenta(v_admin, 'cuenta_proveedor', v_datos, false);
  end loop;
  return null;
end
$$;
create trigger avisar after insert or update of iban or delete on public.proveedores_pago
  for each row execute function interno.proveedores_pago_avisar();

alter table public.proveedores_pago enable row level security;
create policy proveedores_pago_select on public.proveedores_pago for select to authenticated
  using ((select interno.es_admin()));
select interno.politicas_de_administrador('proveedores_pago');
revoke all on public.proveedores_pago from public, anon, authenticated;
grant select, delete on public.proveedores_pago to authenticated;
grant insert (id, iban, notas), update (iban, notas) on public.proveedores_pago to authenticated;
grant all on public.proveedores_pago to service_role;

-- ---------------------------------------------------------------------------------------------
-- departamentos_presupuesto: el presupuesto mensual, para los administradores y quien está a cargo
-- ---------------------------------------------------------------------------------------------
-- La restricción, con el nombre de la columna de entrada (departamentos_<columna>_check).
create table public.departamentos_presupuesto (
  id uuid primary key
    constraint departamentos_presupuesto_id_fkey references public.departamentos (id) on delete cascade
    deferrable initially deferred,
  presupuesto_mensual numeric(14, 2)
    constraint departamentos_presupuesto_mensual_check check (presupuesto_mensual >= 0)
);

insert into public.departamentos_presupuesto (id, presupuesto_mensual)
select d.id, d.presupuesto_mensual from public.departamentos d where d.presupuesto_mensual is not null;

alter table public.departamentos disable trigger tocar_version, disable trigger registrar_historial;
update public.departamentos set presupuesto_mensual = null where presupuesto_mensual is not null;
alter table public.departamentos enable trigger tocar_version, enable trigger registrar_historial;

alter table public.departamentos add constraint departamentos_reservadas_check check (presupuesto_mensual is null);
comment on column public.departamentos.presupuesto_mensual is
  'Solo de entrada: el valor se guarda en departamentos_presupuesto (disparador reservar_presupuesto_mensual). Léase en departamentos_vista.';

create trigger reservar_presupuesto_mensual before insert or update of presupuesto_mensual on public.departamentos
  for each row execute function interno.reservar_columna('departamentos_presupuesto', 'presupuesto_mensual');

select interno.tabla_con_historial('departamentos_presupuesto', false); -- 1:1 con su tabla, sin versión propia

alter table public.departamentos_presupuesto enable row level security;
create policy departamentos_presupuesto_select on public.departamentos_presupuesto for select to authenticated
  using ((select interno.es_admin()) or id = any ((select interno.presupuestos_a_cargo())::uuid[]));
select interno.politicas_de_administrador('departamentos_presupuesto');
revoke all on public.departamentos_presupuesto from public, anon, authenticated;
grant select, delete on public.departamentos_presupuesto to authenticated;
grant insert (id, presupuesto_mensual), update (presupuesto_mensual) on public.departamentos_presupuesto to authenticated;
grant all on public.departamentos_presupuesto to service_role;

-- ---------------------------------------------------------------------------------------------
-- Historial: el de cada tabla aparte, quien ve su dato; lo ya escrito, trasladado a ella
-- ---------------------------------------------------------------------------------------------
insert into public.historial (tabla, registro_id, accion, actor_id, cambios, creado_en)
select case h.tabla when 'proveedores' then 'proveedores_pago' else 'departamentos_presupuesto' end,
       h.registro_id, h.accion, h.actor_id,
       (select jsonb_object_agg(c.key, c.value) from jsonb_each(h.cambios) c
         where c.key in ('iban', 'notas', 'presupuesto_mensual')),
       h.creado_en
  from public.historial h
 where (h.tabla = 'proveedores' and h.cambios ?| array['iban', 'notas'])
    or (h.tabla = 'departamentos' and h.cambios ? 'presupuesto_mensual')
 order by h.id;
update public.historial h set cambios = h.cambios - 'iban' - 'notas'
 where h.tabla = 'proveedores' and h.cambios ?| array['iban', 'notas'];
update public.historial h set cambios = h.cambios - 'presupuesto_mensual'
 where h.tabla = 'departamentos' and h.cambios ? 'presupuesto_mensual';
-- Una modificación que solo cambiaba esos datos queda vacía: ya está en la tabla aparte.
delete from public.historial h
 where h.tabla in ('proveedores', 'departamentos') and h.accion = 'modificacion' and h.cambios = '{}'::jsonb;

-- historial_select (solo lectura): el de un gasto, quien ve el gasto; el de un viaje, quien ve el
-- viaje; el de las cuentas de la empresa, las remesas y los datos de pago de los proveedores, solo
-- los administradores; el de datos_bancarios, además la persona; el de cada tabla aparte, quien
-- ve su dato; el de las tablas que lee todo el mundo, quien está ubicado (interno.ubicado,
-- 20261125000004_rls); quien está pendiente, solo el de sus gastos y el de su perfil. El de una
-- tabla que no se nombra aquí no lo ve nadie: una tabla nueva con historial dice quién lo lee, y
-- una prueba del catálogo (historial-por-tabla) falla mientras no lo diga. Nombra tablas de
-- varios archivos: se crea aquí, donde ya existen todas.
create policy historial_select on public.historial for select to authenticated
  using (
    (select interno.rol_actual()) is not null
    and (case
           when tabla = 'gastos' then exists (select 1 from public.gastos g where g.id = registro_id)
           when tabla = 'viajes' then exists (select 1 from public.viajes v where v.id = registro_id)
           when tabla in ('cuentas_empresa', 'remesas', 'remesa_gastos', 'proveedores_pago') then (select interno.es_admin())
           when tabla = 'departamentos_presupuesto' then (select interno.es_admin())
             or registro_id = any ((select interno.presupuestos_a_cargo())::uuid[])
           when tabla = 'datos_bancarios' then (select interno.es_admin())
             or exists (select 1 from public.datos_bancarios d
                         where d.id = registro_id and d.usuario_id = (select auth.uid()))
           when tabla in ('departamentos', 'sucursales', 'proveedores', 'usuarios', 'tipos_iva',
                          'categorias_fiscales', 'empresa', 'politicas_gasto', 'limites_exentos_irpf')
             then (select interno.ubicado()) or (tabla = 'usuarios' and registro_id = (select auth.uid()))
           else false
         end)
  );

-- ---------------------------------------------------------------------------------------------
-- Las vistas: el dato de la tabla aparte (null para quien no lo ve), con los nombres de siempre
-- ---------------------------------------------------------------------------------------------
-- Como sucursales_vista y usuarios_vista (20261201000001_busqueda: security_invoker, tras la
-- columna `busqueda`), con las columnas escritas: las de entrada, de la tabla aparte.
create view public.departamentos_vista with (security_invoker = true) as
select d.id, d.nombre, d.codigo, d.departamento_padre_id, d.responsable_id, d.centro_costo,
       dp.presupuesto_mensual, d.activo, d.notas, d.creado_en, d.actualizado_en, d.version, d.busqueda,
       p.nombre as departamento_padre_nombre,
       interno.nombre_completo(r.nombre, r.apellidos) as responsable_nombre
from public.departamentos d
left join public.departamentos_presupuesto dp on dp.id = d.id
left join public.departamentos p on p.id = d.departamento_padre_id
left join public.usuarios r on r.id = d.responsable_id;

-- Las opciones de los selectores y filtros de proveedor leen `nombre` de aquí (app/entities/proveedores.ts).
create view public.proveedores_vista with (security_invoker = true) as
select p.id, p.razon_social, p.nombre_comercial, p.tipo_persona, p.pais, p.nif, p.email, p.telefono,
       p.sitio_web, p.direccion, p.ciudad, p.provincia, p.codigo_postal, pp.iban, p.categoria, p.activo,
       pp.notas, p.creado_en, p.actualizado_en, p.version, p.busqueda,
       interno.nombre_proveedor(p.razon_social, p.nombre_comercial) as nombre
from public.proveedores p
left join public.proveedores_pago pp on pp.id = p.id;

revoke all on public.departamentos_vista, public.proveedores_vista from public, anon, authenticated;
grant select on public.departamentos_vista, public.proveedores_vista to authenticated, service_role;

-- ---------------------------------------------------------------------------------------------
-- Quien usa el presupuesto: los avisos al aprobar (como propietarios: siguen avisando a quien
-- aprueba) y el panel de los administradores (con su RLS)
-- ---------------------------------------------------------------------------------------------
-- Lo aprobado (aprobado + pagado) de un departamento en el mes de p_fecha, y su presupuesto, para
-- los avisos antes de aprobar (20261215000001_antes_de_aprobar): como propietario, porque quien
-- aprueba no tiene por qué ver todos los gastos del departamento. Solo para quien puede saberlo:
-- quien lo lee en su tabla (administradores y responsables) o quien puede aprobar ahora algún
-- gasto pendiente de ese departamento (a él van los avisos). Cualquier otro recibe presupuesto y
-- aprobado nulos: la función se puede llamar directamente con cualquier id.
create function interno.presupuesto_del_mes(p_departamento_id uuid, p_fecha date,
                                                       out nombre text, out presupuesto numeric, out aprobado numeric)
language sql stable security definer set search_path = '' as $$
  select d.nombre,
         case when v.puede then dp.presupuesto_mensual end,
         case when v.puede then
           (select coalesce(sum(g.importe), 0) from public.gastos g
             where g.departamento_id = d.id and g.estado in ('aprobado', 'pagado')
               and g.fecha_gasto >= date_trunc('month', p_fecha)::date
               and g.fecha_gasto < (date_trunc('month', p_fecha) + interval '1 month')::date)
         end
    from public.departamentos d
    left join public.departamentos_presupuesto dp on dp.id = d.id
    cross join lateral (
      select (select interno.es_admin())
          or d.id = any ((select interno.presupuestos_a_cargo())::uuid[])
          or exists (select 1 from public.gastos g
                      where g.departamento_id = d.id and g.estado = 'pendiente'
                        and interno.motivo_no_aprueba((select auth.uid()), g, 'aprobar') is null) as puede
    ) v
   where d.id = p_departamento_id
$$;
revoke all on function interno.presupuesto_del_mes(uuid, date) from public, anon, authenticated;
grant execute on function interno.presupuesto_del_mes(uuid, date) to authenticated, service_role;


-- ---------------------------------------------------------------------------------------------
-- A quién se paga cada gasto (según su método de pago):
--   efectivo, tarjeta_credito, tarjeta_debito  lo adelantó el solicitante: se le reembolsa, a la
--                                               cuenta de sus datos_bancarios;
--   transferencia con proveedor                  una factura por pagar: al proveedor, a
--                                               proveedores.iban;
--   transferencia sin proveedor                  no se sabe a quién: se excluye hasta que el
--                                               gasto tenga su proveedor;
--   tarjeta_corporativa, caja_chica              ya lo pagó la empresa: no se reembolsa;
--   domiciliacion                                lo cobra el proveedor por adeudo;
--   cheque                                       se paga fuera de las remesas.
-- Cada gasto de p_gasto_ids (en su orden, con los que no existen) con su beneficiario, su IBAN y,
-- si no puede ir en una remesa del usuario actual, el motivo. Como quien lo aprobó, quien cambió
-- por última vez la cuenta de otro (su historial lo dice) no le paga a esa cuenta: cambiar un IBAN
-- y pagar a él es el fraude que la separación de funciones evita. Como propietario: la llaman solo
-- funciones que ya exigen un administrador (las de las remesas, 20261214000001_remesas). El IBAN
-- del proveedor, de su tabla aparte (proveedores_pago).
-- ---------------------------------------------------------------------------------------------
-- Quién escribió por última vez la cuenta (el IBAN) de una fila de datos_bancarios o de
-- proveedores_pago, y cuándo, según su historial: lo que decide quién no paga a esa cuenta (abajo)
-- y lo que dice el perfil de la persona (public.cuenta_indicada). Como quien pregunta: la RLS del
-- historial decide qué ve.
create function interno.ultimo_cambio_de_iban(p_tabla text, p_id uuid)
returns table (actor_id uuid, creado_en timestamptz) language sql stable set search_path = '' as $$
  select h.actor_id, h.creado_en from public.historial h
   where h.tabla = p_tabla and h.registro_id = p_id and h.cambios ? 'iban'
   order by h.creado_en desc, h.id desc
   limit 1
$$;
revoke all on function interno.ultimo_cambio_de_iban(text, uuid) from public, anon;
grant execute on function interno.ultimo_cambio_de_iban(text, uuid) to authenticated, service_role;

-- La cuenta de la persona p_usuario_id: cuándo y quién la indicó por última vez (su perfil lo
-- dice: quien cobra en una cuenta que escribió otro lo ve). Null sin cuenta o a quien no la ve.
create function public.cuenta_indicada(p_usuario_id uuid) returns jsonb
language sql stable security invoker set search_path = '' as $$
  select jsonb_build_object('en', u.creado_en, 'actor_id', u.actor_id,
           'actor_nombre', interno.nombre_completo(a.nombre, a.apellidos))
    from public.datos_bancarios d
    cross join lateral interno.ultimo_cambio_de_iban('datos_bancarios', d.id) u
    left join public.usuarios a on a.id = u.actor_id
   where d.usuario_id = p_usuario_id and d.iban is not null
$$;
revoke all on function public.cuenta_indicada(uuid) from public, anon;
grant execute on function public.cuenta_indicada(uuid) to authenticated, service_role;

create function interno.remesa_lineas(p_gasto_ids uuid[])
returns table (orden bigint, gasto_id uuid, folio text, descripcion text, fecha_gasto date, importe numeric,
  metodo_pago text, numero_factura text, beneficiario text, beneficiario_id uuid, nombre text, iban text,
  motivo text, cuenta_indicada_en timestamptz, cuenta_indicada_por uuid)
language sql stable security definer set search_path = '' as $$
  with x as (
    select x.id, x.orden, g.id as gasto, g.folio, g.descripcion, g.fecha_gasto, g.importe, g.metodo_pago,
           g.numero_factura, g.estado, g.aprobado_por_id,
           case when g.metodo_pago in ('efectivo', 'tarjeta_credito', 'tarjeta_debito') then 'solicitante'
                when g.metodo_pago = 'transferencia' and p.id is not null then 'proveedor' end as beneficiario,
           s.id as solicitante, p.id as proveedor,
           coalesce(b.titular, interno.nombre_completo(s.nombre, s.apellidos), s.email) as nombre_solicitante,
           p.razon_social, b.iban as iban_solicitante, pp.iban as iban_proveedor, b.id as datos_bancarios,
           (select r.folio from public.remesa_gastos rg join public.remesas r on r.id = rg.remesa_id
             where rg.gasto_id = g.id and rg.viva) as en_remesa
      from unnest(p_gasto_ids) with ordinality as x (id, orden)
      left join public.gastos g on g.id = x.id
      left join public.usuarios s on s.id = g.solicitante_id
      left join public.datos_bancarios b on b.usuario_id = g.solicitante_id
      left join public.proveedores p on p.id = g.proveedor_id
      left join public.proveedores_pago pp on pp.id = p.id
  ), y as (
    select x.*,
           case x.beneficiario when 'solicitante' then x.solicitante when 'proveedor' then x.proveedor end as ben_id,
           case x.beneficiario when 'solicitante' then x.nombre_solicitante when 'proveedor' then x.razon_social end as ben_nombre,
           case x.beneficiario when 'solicitante' then x.iban_solicitante when 'proveedor' then x.iban_proveedor end as ben_iban,
           u.actor_id as ben_iban_por, u.creado_en as ben_iban_en
      from x
      left join lateral interno.ultimo_cambio_de_iban(
             case x.beneficiario when 'solicitante' then 'datos_bancarios' else 'proveedores_pago' end,
             case x.beneficiario when 'solicitante' then x.datos_bancarios else x.proveedor end) u on true
  )
  select y.orden, y.id, y.folio, y.descripcion, y.fecha_gasto, y.importe, y.metodo_pago, y.numero_factura,
         y.beneficiario, y.ben_id, y.ben_nombre, y.ben_iban,
         case
           when y.gasto is null then 'El gasto no existe.'
           when y.estado = 'pagado' then 'Ya está pagado.'
           when y.estado <> 'aprobado' then 'No está aprobado.'
           when y.en_remesa is not null then 'Ya está en la remesa ' || y.en_remesa || '.'
           when y.solicitante = (select auth.uid()) and not interno.permitir_admin_unico()
             then 'Es un gasto suyo: debe incluirlo en una remesa otro administrador.'
           when y.aprobado_por_id = (select auth.uid()) and not interno.permitir_admin_unico()
             then 'Lo aprobó usted: debe incluirlo en una remesa otro administrador.'
           when y.ben_iban_por = (select auth.uid()) and y.ben_id <> (select auth.uid())
                and not interno.permitir_admin_unico()
             then 'Usted cambió la cuenta de ' || y.ben_nombre || ': debe incluirlo en una remesa otro administrador.'
           when y.metodo_pago = 'tarjeta_corporativa' then 'Tarjeta corporativa: no se reembolsa.'
           when y.metodo_pago = 'caja_chica' then 'Caja chica: se pagó con dinero de la empresa, no se reembolsa.'
           when y.metodo_pago = 'domiciliacion' then 'Domiciliación: el proveedor lo cobra por adeudo, no por transferencia.'
           when y.metodo_pago = 'cheque' then 'Cheque: se paga fuera de las remesas.'
           when y.beneficiario is null then 'Transferencia sin proveedor: indique en el gasto a qué proveedor se paga.'
           when y.ben_iban is null then 'Sin IBAN: ' || case y.beneficiario
             when 'solicitante' then y.ben_nombre || ' no ha indicado su cuenta bancaria.'
             else 'el proveedor ' || y.ben_nombre || ' no tiene IBAN.' end
           when not interno.iban_valido(y.ben_iban) then 'IBAN no válido: revise el de ' || y.ben_nombre || '.'
           when not interno.iban_sepa(y.ben_iban)
             then 'IBAN de fuera de la zona SEPA (' || left(y.ben_iban, 2) || '): a ' || y.ben_nombre
               || ' no se le paga con una transferencia SEPA.'
         end,
         -- Cuándo y quién escribió la cuenta; sin autor, lo escrito sin sesión (una carga, el editor SQL),
         -- que se dice igual: una cuenta cambiada justo antes de pagar siempre se ve.
         y.ben_iban_en, y.ben_iban_por
    from y
   order by y.orden
$$;
revoke all on function interno.remesa_lineas(uuid[]) from public, anon, authenticated;
